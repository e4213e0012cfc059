/** One key's allowance in its current window. */
export interface WindowAnswer {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Counts per key in fixed windows (a window starts with a key's first use): the one counter behind calls per
 * minute, client registrations per hour and metadata-document fetches per minute. Finished windows are swept now
 * and then, so memory stays bounded by the keys of the last window.
 */
export class FixedWindows {
  private readonly windows = new Map<string, { startedAt: number; used: number }>();
  private sweptAt = 0;

  constructor(private readonly windowMs: number) {}

  /** Uses one of `key`'s `limit` in the window, when one is left. */
  take(key: string, limit: number, nowMs: number): WindowAnswer {
    const window = this.current(key, nowMs);
    const allowed = window.used < limit;
    if (allowed) window.used += 1;
    return this.answer(window, allowed, limit, nowMs);
  }

  /** Whether `key` has one left, without using it. */
  peek(key: string, limit: number, nowMs: number): WindowAnswer {
    const window = this.windows.get(key);
    if (!window || nowMs - window.startedAt >= this.windowMs) return { allowed: limit > 0, limit, remaining: limit, resetSeconds: Math.ceil(this.windowMs / 1000) };
    return this.answer(window, window.used < limit, limit, nowMs);
  }

  private current(key: string, nowMs: number) {
    this.sweep(nowMs);
    let window = this.windows.get(key);
    if (!window || nowMs - window.startedAt >= this.windowMs) {
      window = { startedAt: nowMs, used: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  private answer(window: { startedAt: number; used: number }, allowed: boolean, limit: number, nowMs: number): WindowAnswer {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.used),
      resetSeconds: Math.max(1, Math.ceil((window.startedAt + this.windowMs - nowMs) / 1000)),
    };
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.sweptAt < this.windowMs) return;
    this.sweptAt = nowMs;
    for (const [key, window] of this.windows) if (nowMs - window.startedAt >= this.windowMs) this.windows.delete(key);
  }
}
