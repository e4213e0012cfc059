import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, toApiError, type Problem } from '../errors.js';
import type { Once, Tool, ToolContext } from '../tools/define-tool.js';
import type { Caller } from '../shared/caller.js';
import { prepareCall } from '../tools/prepare-call.js';
import { toolForOperation } from '../tools/index.js';
import type { Gate } from '../auth/gate.js';
import { ClaimKeeper } from './claim-keeper.js';
import { idempotencyKeyOf, idempotencyScope, runOnce, type Answer } from './idempotency.js';
import { canAnswer, sendJson, sendProblem } from '../http/problem.js';
import { ClientGone, readJsonObject } from '../http/read-body.js';
import { noteFailure, noteOperation } from '../observability/request-facts.js';

const VERSION_PATH = /^\/(v\d+)(?:\/|$)/;

/** Whether a path is the API's: `/v1/...`, or another version's (which answers 410). */
export function isApiPath(path: string): boolean {
  return VERSION_PATH.test(path);
}

/**
 * The HTTP facade: `POST /v1/<operationId>` → the tool → JSON. Returns false for paths that are not the API's,
 * so the caller can hand them on. Every answer carries the RateLimit headers.
 */
export function httpFacade(ctx: ToolContext, gate: Gate) {
  const { publicUrl } = ctx.config;
  const claims = new ClaimKeeper(ctx.store.idempotency, ctx.clock);

  return async function handleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const version = VERSION_PATH.exec(path);
    if (!version) return false;
    const tool = version[1] === 'v1' ? toolForOperation(path.slice('/v1/'.length)) : undefined;
    // Named for the log before the budget is checked, so a refused call is logged as the operation it was.
    if (tool) noteOperation(res, tool.operation!);
    try {
      const caller = await gate.admit(req, res);
      if (version[1] !== 'v1') throw apiError.versionRetired();
      if (!tool) throw apiError.notFound('There is no such operation; see /v1/openapi.json.');
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        throw apiError.methodNotAllowed('Every operation is a POST.');
      }
      const answer = await callTool(tool, caller(), req);
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      const refused = answer.status >= 400;
      // A refusal answered as a body (kept for a retry, so only its text is at hand) is told to the request log too.
      if (refused) noteFailure(res, { status: answer.status, code: (JSON.parse(answer.body) as Problem).code });
      sendJson(res, answer.status, answer.body, refused ? 'application/problem+json' : undefined);
    } catch (error) {
      // A caller that hung up mid-body has nobody to answer.
      if (!(error instanceof ClientGone) && canAnswer(res)) sendProblem(res, error, publicUrl);
    }
    return true;
  };

  async function callTool(tool: Tool, caller: Caller, req: IncomingMessage): Promise<Answer> {
    const key = tool.takesIdempotencyKey ? idempotencyKeyOf(req) : null;
    const body = await readJsonObject(req);
    const input = prepareCall(tool, caller, body);
    if (key === null) return answerOf(tool, input, caller);
    const scope = idempotencyScope(caller, tool.operation!, key);
    return runOnce(ctx.store, claims, scope, body, ctx.clock.now(), (once) => answerOf(tool, input, caller, once));
  }

  async function answerOf(tool: Tool, input: unknown, caller: Caller, once?: Once): Promise<Answer> {
    try {
      return { status: 200, body: JSON.stringify(await tool.run(input as never, caller, ctx, once)) };
    } catch (error) {
      const failed = toApiError(error);
      if (failed.code === 'internal_server_error' || failed.retryAfter !== undefined) throw error;
      return { status: failed.status, body: JSON.stringify(failed.toProblem(publicUrl)) };
    }
  }
}
