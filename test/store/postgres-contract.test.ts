import { openPostgresStore } from '../../src/store/postgres/index.js';
import { newTestDatabase } from '../helpers/shared-postgres.js';
import { storeContract } from './contract.js';

/** The store contract against PostgreSQL: a fresh database in the run's throwaway cluster for each test. */
storeContract('PostgreSQL', async (random) => {
  const url = await newTestDatabase();
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
