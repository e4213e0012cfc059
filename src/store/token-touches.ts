import { isStorageFailure } from '../errors.js';
import { processLog } from '../observability/logger.js';
import { writeFailures } from '../observability/write-failures.js';

/**
 * Tokens' last-used times, kept in memory and written in batches by either adapter: writing on every API call
 * would turn each read into a write. Recording use must never fail the call that used the token, so a batch that
 * cannot be written is logged and kept for the next round (a time recorded meanwhile wins over it).
 */
export interface TokenTouches {
  record(id: string, at: Date): void;
  /** Stops the timer and writes what is pending; never rejects. */
  close(): Promise<void>;
}

/**
 * `write` stores one batch (token id → last use), all of it or none. A synchronous `write` runs before `close()`
 * returns unless a batch is still being written, so the SQLite adapter may close its file right after.
 */
export function batchedTouches(
  write: (batch: ReadonlyMap<string, Date>) => void | Promise<void>,
  everyMs: number,
): TokenTouches {
  let pending = new Map<string, Date>();
  // Batches are written one after the other, so an older batch never lands after a newer one.
  let inFlight: Promise<void> | null = null;

  async function writeBatch(): Promise<void> {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await write(batch);
    } catch (error) {
      // Busy or unreachable database: keep the times and try again next round.
      for (const [id, at] of batch) if (!pending.has(id)) pending.set(id, at);
      if (isStorageFailure(error)) writeFailures.failed(error);
      else processLog().warn({ err: error }, 'Could not record token use yet');
    }
  }

  function flush(): Promise<void> {
    const current = (inFlight ? inFlight.then(writeBatch) : writeBatch()).finally(() => {
      if (inFlight === current) inFlight = null;
    });
    inFlight = current;
    return current;
  }

  const timer = setInterval(() => void flush(), everyMs);
  timer.unref();

  return {
    record: (id, at) => void pending.set(id, at),
    close() {
      clearInterval(timer);
      return flush();
    },
  };
}
