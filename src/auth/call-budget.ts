/**
 * Calls per minute, counted per person (or per client address before sign-in) in fixed one-minute windows.
 * One budget is shared by the HTTP API, the MCP endpoint and the web app, so a person has one allowance.
 */
export interface BudgetAnswer {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;

export class CallBudget {
  private readonly windows = new Map<string, { startedAt: number; used: number }>();
  private sweptAt = 0;

  take(key: string, limit: number, nowMs: number): BudgetAnswer {
    this.sweep(nowMs);
    let window = this.windows.get(key);
    if (!window || nowMs - window.startedAt >= WINDOW_MS) {
      window = { startedAt: nowMs, used: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.used < limit;
    if (allowed) window.used += 1;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.used),
      resetSeconds: Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - nowMs) / 1000)),
    };
  }

  /** Forgets finished windows now and then, so memory stays bounded by the callers of the last minute. */
  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAt < WINDOW_MS) return;
    this.sweptAt = nowMs;
    for (const [key, window] of this.windows) {
      if (nowMs - window.startedAt >= WINDOW_MS) this.windows.delete(key);
    }
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
