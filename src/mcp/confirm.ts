import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { apiError } from '../errors.js';

/**
 * Asks the person before a destructive call. A client that declared elicitation gets a form to accept; any other
 * client must pass `confirm: true`, which the tool's description tells the assistant to do only after asking.
 */
export async function confirmWithPerson(server: Server, question: string, confirm: unknown): Promise<void> {
  if (server.getClientCapabilities()?.elicitation) {
    const answer = await server.elicitInput({
      mode: 'form',
      message: question,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Yes, delete it', default: false } },
        required: ['confirm'],
      },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) {
      throw apiError.conflict('The person did not confirm, so nothing was deleted.');
    }
    return;
  }
  if (confirm !== true) {
    throw apiError.badRequest(`${question} Ask the person; if they agree, call again with confirm: true.`, 'confirm');
  }
}
