import { FixedWindows, type WindowAnswer } from '../support/fixed-windows.js';

/**
 * Calls per minute, counted per person (or per client address before sign-in) in fixed one-minute windows.
 * One budget is shared by the HTTP API, the MCP endpoint and the web app, so a person has one allowance.
 */
export type BudgetAnswer = WindowAnswer;

export class CallBudget extends FixedWindows {
  constructor() {
    super(60_000);
  }
}

/**
 * The IETF RateLimit header fields (draft), the same on every surface. A call past the budget is refused with
 * `rate_limited`, whose answer writes `Retry-After`.
 */
export function rateLimitHeaders(answer: BudgetAnswer): Record<string, string> {
  return {
    'RateLimit-Policy': `"minute";q=${answer.limit};w=60`,
    RateLimit: `"minute";r=${answer.remaining};t=${answer.resetSeconds}`,
  };
}
