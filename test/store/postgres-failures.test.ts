import { describe, expect, it } from 'vitest';
import { storeFailureOf, toApiError } from '../../src/errors.js';
import { postgresFailure } from '../../src/store/postgres/failures.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';
import { startSlowProxy } from '../helpers/slow-proxy.js';

/**
 * The PostgreSQL adapter registers its reader of pg's errors (store/postgres/failures.ts) as it opens (errors.ts
 * readStoreFailuresWith): what a real call throws when the database goes out of reach reaches its caller as pg threw
 * it, and is read as an outage where it is classified. No other test of this project registers the reader, so
 * without the adapter's registration the verdict is null. The rest of the reading: test/store/failures.test.ts.
 */
describe('a PostgreSQL store whose database goes out of reach', () => {
  it("rejects with pg's own error, read as an outage: 503 with a few seconds to wait", async () => {
    const database = new URL(await newMigratedTestDatabase());
    // The database cut off for this store alone, through a proxy (no delay).
    const proxy = await startSlowProxy({ host: database.hostname, port: Number(database.port) }, 0);
    const through = new URL(database.href);
    through.host = proxy.address;
    const store = await openPostgresStore(through.href);
    try {
      expect(await store.people.get('person_x')).toBeNull();
      proxy.refuse(true);
      proxy.cut();
      const thrown = await store.people.get('person_x').catch((error: unknown) => error);
      // pg's error itself, as its reader reads it: nothing wrapped or marked it on the way out.
      expect(postgresFailure(thrown)).toBe('outage');
      expect(storeFailureOf(thrown)).toBe('outage');
      const failed = toApiError(thrown);
      expect([failed.status, failed.code, failed.retryAfter]).toEqual([503, 'service_unavailable', 5]);
    } finally {
      proxy.refuse(false);
      await store.close();
      await proxy.stop();
    }
  });
});
