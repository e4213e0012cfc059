import type { ServerResponse } from 'node:http';
import type { WindowAnswer } from '../support/rate-limiter.js';

/**
 * Calls per minute, counted per person (or per client address before sign-in) in a sliding minute: at most the
 * limit in any 60 seconds. One budget is shared by the HTTP API, the MCP endpoint and the web app, so a person
 * has one allowance. A JSON-RPC batch on /mcp costs one call per request in it (Gate.countBatch).
 */
export const CALL_WINDOW_MS = 60_000;

export type BudgetAnswer = WindowAnswer;

/**
 * Sets the IETF RateLimit header fields (draft), the same on every surface. A call past the budget is refused with
 * `rate_limited`, whose answer writes `Retry-After`.
 */
export function setRateLimitHeaders(res: ServerResponse, answer: BudgetAnswer): void {
  res.setHeader('RateLimit-Policy', `"minute";q=${answer.limit};w=${CALL_WINDOW_MS / 1000}`);
  res.setHeader('RateLimit', `"minute";r=${answer.remaining};t=${answer.resetSeconds}`);
}
