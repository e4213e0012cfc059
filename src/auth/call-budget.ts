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

/** The IETF RateLimit header fields (draft), the same on every surface. */
export function rateLimitHeaders(answer: BudgetAnswer): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"minute";q=${answer.limit};w=60`,
    RateLimit: `"minute";r=${answer.remaining};t=${answer.resetSeconds}`,
  };
  if (!answer.allowed) headers['Retry-After'] = String(answer.resetSeconds);
  return headers;
}
