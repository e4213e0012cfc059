import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { storeContract } from './contract.js';

/** The store contract against SQLite: a fresh database file in a folder of its own for each test. */
storeContract('SQLite', async (random) => {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-contract-'));
  const path = join(dir, 'store.db');
  let store = openSqliteStore(path, random);
  return {
    store,
    async reopen() {
      await store.close();
      store = openSqliteStore(path, random);
      return store;
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
