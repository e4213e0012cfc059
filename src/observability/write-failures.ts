import { processLog, type Logger } from './logger.js';

/** How often at most the log repeats that writes still fail. */
export const WRITE_FAILURE_LOG_MS = 60_000;

/**
 * The database unable to store writes (errors.ts isStorageFailure: a full disk, a failing one). Every write meets
 * it while it lasts, hundreds a minute on a busy service, so the log tells it as one condition rather than a
 * stack per request: a line when writes begin to fail, then at most one a minute with how many failed since, and
 * a line when a write is stored again.
 */
export interface WriteFailures {
  /** A write the database could not store. */
  failed(error: unknown): void;
  /** A write was stored: writes work again, if they did not. */
  stored(): void;
  /** Why writes fail (the database's code and words), or null while they do not. */
  reason(): string | null;
}

export interface WriteFailureOptions {
  log?: () => Logger;
  now?: () => number;
  everyMs?: number;
}

export function trackWriteFailures({ log = processLog, now = Date.now, everyMs = WRITE_FAILURE_LOG_MS }: WriteFailureOptions = {}): WriteFailures {
  let reason: string | null = null;
  let lastLineAt = 0;
  /** Failures since the last line, and since writes began to fail. */
  let sinceLine = 0;
  let total = 0;
  return {
    failed(error) {
      const began = reason === null;
      reason = reasonOf(error);
      total += 1;
      if (began) {
        lastLineAt = now();
        log().error({ reason }, `The database cannot store writes (${reason}): each answers 503 until it can; told once a minute while it lasts`);
        return;
      }
      sinceLine += 1;
      if (now() - lastLineAt < everyMs) return;
      log().error({ reason, failed: sinceLine }, `The database still cannot store writes (${reason}): ${sinceLine} more failed since the last line`);
      lastLineAt = now();
      sinceLine = 0;
    },
    stored() {
      if (reason === null) return;
      log().warn({ failed: total }, `The database stores writes again; ${total} failed meanwhile`);
      reason = null;
      sinceLine = 0;
      total = 0;
    },
    reason: () => reason,
  };
}

/** The process's: told by every surface's error handling (http/problem.ts) and the batched writers, read by /healthz. */
export const writeFailures: WriteFailures = trackWriteFailures();

/** `SQLITE_FULL: database or disk is full`: the driver's code and words, which name no secret. */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
