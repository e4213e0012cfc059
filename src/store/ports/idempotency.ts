export interface IdempotencyKey {
  personId: string;
  operation: string;
  key: string;
}

export type IdempotencyBegin =
  | { kind: 'new'; claim: number }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_use' }
  | { kind: 'reused' };

/** One claim an idempotent call holds while it runs. */
export interface HeldClaim {
  key: IdempotencyKey;
  claim: number;
}

/**
 * An idempotent call's claim on its key, handed to the write that completes the call (ports' `slot` params): the
 * write keeps the call's answer in its own transaction, so a committed write always has its answer kept for a
 * retry to replay. When the claim is no longer the caller's (taken over, see IdempotencyStore.hold), the write
 * rolls back and rejects with 409 `idempotency_key_in_use`.
 */
export interface AnswerSlot<T> {
  key: IdempotencyKey;
  claim: number;
  /** The call's answer for the write's result, as a retry gets it. */
  render(result: T): { status: number; body: string };
}

/**
 * Idempotency keys. A claim is held for a few seconds (CLAIM_HELD_MS) and kept held by its process (`hold`) while
 * its call runs; one not held any longer (its process died) is taken over by the next call with the key. A write
 * keeps its answer in its own transaction (AnswerSlot), so taking a claim over never makes a write twice.
 */
export interface IdempotencyStore {
  /** Claims the key for this body, or says what the first call with it answered. */
  begin(key: IdempotencyKey, bodyHash: string, now: Date): Promise<IdempotencyBegin>;
  /** Keeps these claims held until `until`, those not answered nor taken over; in one statement. */
  hold(claims: readonly HeldClaim[], until: Date): Promise<void>;
  /** Keeps the first answer for 24 hours; does nothing if the claim was taken over meanwhile. */
  finish(key: IdempotencyKey, claim: number, status: number, body: string): Promise<void>;
  /** Lets the key go without keeping an answer (a limit or an outage answered; a retry may do better). */
  release(key: IdempotencyKey, claim: number): Promise<void>;
}
