import { migrate, openDatabase } from '../../src/store/postgres/database.js';
import { migrations, postgresHistory } from '../../src/store/postgres/migrations.js';
import { newTestDatabase } from '../helpers/shared-postgres.js';
import { migrationContract } from './migration-contract.js';

/** The shared migration list on PostgreSQL: a fresh database in the run's throwaway cluster for each test. */
migrationContract('PostgreSQL', {
  dialect: 'postgres',
  history: postgresHistory,
  migrations,
  firstShared: 14,
  async open() {
    const url = await newTestDatabase();
    let db = await openDatabase(url);
    return {
      migrate: (list) => migrate(url, list),
      async version() {
        const { rows } = await db.pool.query<{ applied: number }>('SELECT max(version) AS applied FROM schema_migrations');
        return rows[0]!.applied;
      },
      rows: async (text) => (await db.pool.query(text)).rows,
      async reopen() {
        await db.close();
        db = await openDatabase(url);
      },
      close: () => db.close(),
    };
  },
});
