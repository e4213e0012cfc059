import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toApiError } from '../errors.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { Caller } from '../shared/caller.js';
import { prepareCall } from '../tools/prepare-call.js';
import { toolNamed } from '../tools/index.js';
import { confirmWithPerson } from './confirm.js';
import { instructionsFor } from './instructions.js';
import { answersObject, mcpToolList } from './tool-list.js';
import { toolResult } from './tool-result.js';

export const SERVER_INFO = { name: 'shortlinks', version: '0.1.0' };

/**
 * One MCP server (one per session), answering tools/list from the registry and tools/call through the same
 * `run` the HTTP API uses. tools/list is described with the limits in force at the time of the request. A
 * successful call answers the structured result, its JSON as text and the addresses of any links in it. A failed
 * call is an `isError` result carrying the HTTP API's problem (status, code, detail, field) as JSON text.
 */
export function createMcpServer(ctx: ToolContext): Server {
  const { publicUrl } = ctx.config;
  const instructions = instructionsFor(publicUrl);
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: mcpToolList({ publicUrl, limits: ctx.store.settings.limits() }),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra) => {
    const tool = toolNamed(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const caller = extra.authInfo?.extra?.caller as Caller;
    try {
      const { confirm, ...args } = params.arguments ?? {};
      const input = prepareCall(tool, caller, tool.confirmation ? args : (params.arguments ?? {}));
      if (tool.confirmation) {
        await confirmWithPerson(server, await tool.confirmation(input as never, caller, ctx), confirm);
      }
      const result = await tool.run(input as never, caller, ctx);
      const structured = (answersObject(tool) ? result : { result }) as Record<string, unknown>;
      return toolResult(structured, publicUrl);
    } catch (error) {
      return toolError(error, publicUrl);
    }
  });
  return server;
}

function toolError(error: unknown, publicUrl: string): CallToolResult {
  const failed = toApiError(error);
  if (failed.code === 'internal_server_error') console.error('Unexpected error in a tool call:', error);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(failed.toProblem(publicUrl)) }] };
}
