import { isStorageFailure } from '../errors.js';
import { processLog } from '../observability/logger.js';
import { writeFailures } from '../observability/write-failures.js';

/** A grant's last use is written at most once a minute: assistants call often, the assistants page shows minutes. */
const TOUCH_EVERY_MS = 60_000;

/**
 * OAuthStore.touchGrant for either adapter: writes through `write` when the grant was not written in the last
 * minute by this process, and never fails the call (a failed write is logged and tried again on the next use).
 */
export function throttledGrantTouches(write: (grantId: string, at: Date) => unknown) {
  const touched = new Map<string, number>();
  return {
    async touch(grantId: string, now: Date): Promise<void> {
      const last = touched.get(grantId);
      if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
      touched.set(grantId, now.getTime());
      try {
        await write(grantId, now);
      } catch (error) {
        touched.delete(grantId);
        if (isStorageFailure(error)) writeFailures.failed(error);
        else processLog().warn({ err: error }, 'Could not record assistant use yet');
      }
    },
    /** A revoked grant's entry goes with it. */
    forget(grantId: string): void {
      touched.delete(grantId);
    },
  };
}
