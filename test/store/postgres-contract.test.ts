import { openPostgresStore } from '../../src/store/postgres/index.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';
import { storeContract } from './contract.js';

/** The store contract against PostgreSQL: a fresh database for each test, a copy of the migrated one (shared-postgres.ts). */
storeContract('PostgreSQL', async (random) => {
  const url = await newMigratedTestDatabase();
  let store = await openPostgresStore(url, random);
  return {
    store,
    async reopen() {
      await store.close();
      store = await openPostgresStore(url, random);
      return store;
    },
    async close() {
      await store.close();
    },
  };
});
