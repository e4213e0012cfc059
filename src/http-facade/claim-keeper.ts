import type { HeldClaim, IdempotencyStore } from '../store/ports.js';
import { CLAIM_HELD_MS, HOLD_EVERY_MS } from '../store/idempotency-claims.js';
import type { Clock } from '../shared/clock.js';

/**
 * Holds the claims of this process's running idempotent calls, all in one statement every HOLD_EVERY_MS while any
 * runs (no timer and no statement while none does). A process that dies stops holding, and a retry takes its
 * claims over within seconds (store/idempotency-claims.ts).
 */
export class ClaimKeeper {
  private readonly held = new Set<HeldClaim>();
  private timer: NodeJS.Timeout | undefined;
  private holding = false;

  constructor(
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  /** Runs `work` holding `claim` meanwhile. */
  async while<T>(claim: HeldClaim, work: () => Promise<T>): Promise<T> {
    this.held.add(claim);
    this.timer ??= setInterval(() => this.hold(), HOLD_EVERY_MS).unref();
    try {
      return await work();
    } finally {
      this.held.delete(claim);
      if (this.held.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }
  }

  private hold(): void {
    // The last hold still on its way (a slow database): one at a time is enough.
    if (this.holding || this.held.size === 0) return;
    this.holding = true;
    const until = new Date(this.clock.now().getTime() + CLAIM_HELD_MS);
    // A hold that fails (the database out of reach) costs nothing but the claim's time: should it lapse and a retry
    // take it over, this process's write finds its claim gone and rolls back.
    this.idempotency
      .hold([...this.held], until)
      .catch(() => undefined)
      .finally(() => (this.holding = false));
  }
}
