import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../../src/store/sqlite/database.js';
import { migrations, sqliteHistory } from '../../src/store/sqlite/migrations.js';
import { migrationContract } from './migration-contract.js';

/** The shared migration list on SQLite: a fresh file in a folder of its own for each test. */
migrationContract('SQLite', {
  dialect: 'sqlite',
  history: sqliteHistory,
  migrations,
  firstShared: 20,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'shortlinks-migrations-'));
    const path = join(dir, 'store.db');
    let db = openDatabase(path);
    return {
      migrate: async (list) => migrate(db, list),
      version: async () => db.pragma('user_version', { simple: true }) as number,
      rows: async (text) => db.prepare(text).all(),
      async reopen() {
        db.close();
        db = openDatabase(path);
      },
      async close() {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});
