import { withTeamAddresses } from './team-addresses.js';
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { apiError, type ApiError } from '../errors.js';
import type { Tool, ToolContext } from '../tools/define-tool.js';
import type { Caller } from '../shared/caller.js';
import { clipped } from '../shared/words.js';
import { prepareCall } from '../tools/prepare-call.js';
import { toolNamed } from '../tools/index.js';
import { confirmWithPerson } from './confirm.js';
import { sendToWelcome } from './first-step.js';
import { instructionsFor } from './instructions.js';
import type { RequestStates } from './request-state.js';
import { answersObject, mcpToolList } from './tool-list.js';
import { showsApps, UI_EXTENSION } from './apps/extension.js';
import { listAppResources, readAppResource } from './apps/resources.js';
import { showsDbIpAttribution } from '../views/click-breakdown.js';
import { chartAddress, viewData } from './apps/view-data.js';
import { toolResult } from './tool-result.js';
import { failureOf } from '../http/problem.js';

export const SERVER_INFO = { name: 'shortlinks', version: '0.1.0' };

/**
 * How long a client may keep the tool list (2026-07-28 cache hints). Descriptions name the limits in force, which
 * the operator changes while the server runs, so a minute; `private`, because the list is answered to a signed-in
 * caller and is theirs alone.
 */
export const TOOL_LIST_TTL_MS = 60_000;

// With schemas of their own, malformed params are invalid params (-32602), where the SDK's default check answers
// any malformed request but tools/call as an internal error (-32603), as if the fault were ours.
const readParams = z.looseObject({ uri: z.string() });
// Every list here comes in one page and hands out no cursor, so any cursor is one this server never gave: -32602, as
// the pagination utility says of an invalid cursor (the SDK would ignore it and answer the first page again).
const listParams = z.looseObject({ cursor: z.undefined({ error: 'This list comes in one page; there is no cursor to give.' }).optional() }).optional();

/** The views change only with a new release, and are the same for everyone. */
const VIEW_LIST_TTL_MS = 3_600_000;

/**
 * One MCP server: per request under 2026-07-28, per session under 2025-11-25. It answers tools/list from the
 * registry and tools/call through the same `run` the HTTP API uses. tools/list is described with the limits in
 * force at the time of the request. A successful call answers the structured result, its JSON as text and the
 * addresses of any links in it. A failed call is an `isError` result carrying the HTTP API's problem (status, code,
 * detail, field) as JSON text. Its resources are the MCP Apps views (apps/).
 */
export function createMcpServer(ctx: ToolContext, states: RequestStates): Server {
  const { publicUrl } = ctx.config;
  const server = new Server(SERVER_INFO, {
    // Resources are the MCP Apps views (apps/), which only clients that declared the extension are pointed to.
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, extensions: { [UI_EXTENSION]: {} } },
    instructions: instructionsFor(publicUrl),
    cacheHints: {
      'tools/list': { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'private' },
      'resources/list': { ttlMs: VIEW_LIST_TTL_MS, cacheScope: 'public' },
      'resources/templates/list': { ttlMs: VIEW_LIST_TTL_MS, cacheScope: 'public' },
    },
  });
  const withViews = () => showsApps(server.getClientCapabilities());
  server.setRequestHandler('tools/list', { params: listParams }, async (_params, extra) => {
    const caller = extra.http?.authInfo?.extra?.caller as Caller | undefined;
    return { tools: await listTools(ctx, withViews(), caller) };
  });
  server.setRequestHandler('resources/list', { params: listParams }, async () => ({ resources: listAppResources() }));
  // Views have fixed addresses; the method is answered because clients of the resources capability ask it.
  server.setRequestHandler('resources/templates/list', { params: listParams }, async () => ({ resourceTemplates: [] }));
  const viewFacts = { publicUrl, dbIp: showsDbIpAttribution(ctx.config) };
  server.setRequestHandler('resources/read', { params: readParams }, async ({ uri }) => readAppResource(uri, viewFacts));
  server.setRequestHandler('tools/call', async ({ params }, extra) => {
    const tool = toolNamed(params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${clipped(params.name)}`);
    const caller = extra.http?.authInfo?.extra?.caller as Caller;
    const firstStep = extra.http?.authInfo?.extra?.firstStep as ApiError | null | undefined;
    const failed = extra.http?.authInfo?.extra?.failed as ToolFailed | undefined;
    if (!firstStep && !tool.confirmation) return callTool(ctx, tool, params.arguments ?? {}, caller, withViews(), failed);
    try {
      if (firstStep) return sendToWelcome(server, extra, firstStep, publicUrl);
      return await callWithConfirmation(tool, params.arguments ?? {}, caller, extra);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      return toolError(error, publicUrl, failed);
    }
  });

  /**
   * A destructive tool runs only once the person said yes. Under 2026-07-28 a "no" is an ordinary answer saying
   * nothing happened (`declined: true`); a 2025-11-25 session keeps answering it as `conflict`, as it always has.
   */
  async function callWithConfirmation(tool: Tool, args: Record<string, unknown>, caller: Caller, extra: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    const { confirm, ...rest } = args;
    const input = prepareCall(tool, caller, rest);
    const question = await tool.confirmation!(input as never, caller, ctx);
    const binding = { personId: caller.personId, tool: tool.name, input };
    const answer = await confirmWithPerson(server, extra, question, confirm, binding, states);
    if (answer === 'confirmed') {
      // A 2025-11-25 person's yes may arrive much later, and through another process (sessions-2025/answer-relay.ts),
      // not as a request of its own here: catch up, so a token revoked or a link changed meanwhile is seen.
      await ctx.store.changes.catchUp();
      return run(ctx, tool, input, caller);
    }
    if (answer !== 'declined') return answer;
    if (extra.mcpReq.envelope === undefined) throw apiError.conflict('The person did not confirm, so nothing was deleted.');
    return toolResult({ result: null, declined: true });
  }

  return server;
}

/**
 * The `tools/list` answer: the registry, described with the address and the limits in force now, and where the
 * caller's teams show their links (team-addresses.ts).
 */
export async function listTools(ctx: ToolContext, withViews = false, caller?: Caller) {
  const listed = mcpToolList({ publicUrl: ctx.config.publicUrl, limits: await ctx.store.settings.limits() }, withViews);
  return withTeamAddresses(listed, ctx, caller);
}

/** Told of a tool call's refusal, which the request log and metrics count by its status and code (request-log.ts). */
export type ToolFailed = (error: ApiError) => void;

/**
 * A `tools/call` of a tool that asks no question: the params checked as every surface checks them, then `run`. A
 * refusal is an `isError` result, never a protocol error: the call itself was understood.
 */
export async function callTool(
  ctx: ToolContext,
  tool: Tool,
  args: Record<string, unknown>,
  caller: Caller,
  withViews = false,
  failed?: ToolFailed,
): Promise<CallToolResult> {
  try {
    return await run(ctx, tool, prepareCall(tool, caller, args), caller, withViews);
  } catch (error) {
    return toolError(error, ctx.config.publicUrl, failed);
  }
}

/** With views (a client that shows MCP Apps), the result's `_meta` also carries what the tool's view draws. */
async function run(ctx: ToolContext, tool: Tool, input: unknown, caller: Caller, withViews = false): Promise<CallToolResult> {
  const result = await tool.run(input as never, caller, ctx);
  const note = tool.note ? await tool.note(result as never, caller, ctx) : null;
  const answer = toolResult((answersObject(tool) ? result : { result }) as Record<string, unknown>, note);
  const extra = withViews ? (viewData(tool.name, answer.structuredContent) ?? (await chartAddress(tool.name, input, (code) => addressOfCode(ctx, code)))) : null;
  return extra === null ? answer : { ...answer, _meta: extra };
}

/** A link's short address by code at its team's address, or null when no link has the code. */
async function addressOfCode(ctx: ToolContext, code: string): Promise<string | null> {
  const link = await ctx.store.links.findByCode(code);
  return link && `${(await ctx.domains.directory.addresses())(link.teamId)}/${code}`;
}

function toolError(error: unknown, publicUrl: string, told?: ToolFailed): CallToolResult {
  const failed = failureOf(error, {}, 'Unexpected error in a tool call');
  told?.(failed);
  // Keys in the order the SDK writes a result, so the fast path's answers (fast-path.ts) are the SDK's to the byte.
  return { content: [{ type: 'text', text: JSON.stringify(failed.toProblem(publicUrl)) }], isError: true };
}
