import {
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { apiError } from '../errors.js';
import { canElicitForm } from './capabilities.js';
import type { RequestStates, StateBinding } from './request-state.js';
import { askedInThisCall, openCallQuestion } from './sessions-2025/call-question.js';

/** The person's answer: go ahead, or they said no (or closed the question), so nothing happens. */
export type Answer = 'confirmed' | 'declined';

const QUESTION_KEY = 'confirm';

/**
 * Asks the person before a destructive call. A client that declared form elicitation gets the question as an
 * input-required answer: under 2026-07-28 the client asks and calls again with the answer and the signed state;
 * on a 2025-11-25 session the SDK puts the same question to the client as an elicitation request within the call,
 * and hands the handler the answer with the state. There an answer the client brings along itself (2026-07-28's
 * `inputResponses` and `requestState`, which the SDK lifts from any request) was never asked for, and is refused.
 * Any other client must pass `confirm: true`, which the tool's description tells the assistant to do only after
 * asking.
 */
export async function confirmWithPerson(
  server: Server,
  ctx: ServerContext,
  question: string,
  confirm: unknown,
  binding: StateBinding,
  states: RequestStates,
): Promise<Answer | InputRequiredResult> {
  if (!canElicitForm(server.getClientCapabilities())) {
    if (confirm !== true) {
      throw apiError.badRequest(`${question} Ask the person; if they agree, call again with confirm: true.`, 'confirm');
    }
    return 'confirmed';
  }
  const inSession = ctx.mcpReq.envelope === undefined;
  const answer = inputResponse(ctx.mcpReq.inputResponses, QUESTION_KEY);
  if (answer.kind === 'missing') {
    // The question will wait in this process: opened first, so one too many is refused as this call's answer.
    if (inSession) await openCallQuestion(server, ctx);
    return ask(question, states.issue(binding));
  }
  if (inSession && !askedInThisCall(ctx)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'In a 2025-11-25 session the person is asked within the call; inputResponses and requestState belong to 2026-07-28 requests. Call again without them.',
    );
  }
  const state = ctx.mcpReq.requestState();
  // The answer counts only with the state issued for this person, tool and input, before it expired.
  if (typeof state !== 'string' || !states.holds(state, binding)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState: ask the person again.');
  }
  return answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true ? 'confirmed' : 'declined';
}

function ask(question: string, requestState: string): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [QUESTION_KEY]: inputRequired.elicit({
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Yes, delete it', default: false } },
          required: ['confirm'],
        },
      }),
    },
    requestState,
  });
}
