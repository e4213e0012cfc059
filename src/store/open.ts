import type { Config } from '../config.js';
import { cryptoRandom, type Random } from '../domain/random.js';
import type { DatabaseDescription } from '../support/database-line.js';
import type { Store } from './ports.js';
import { parsePostgresUrl } from './postgres/url.js';

/** What picks and names the store: DATABASE_URL, else DATABASE_PATH. */
export type StoreConfig = Pick<Config, 'databasePath' | 'databaseUrl'>;

/**
 * The one place the store is picked from configuration; the server and the operator CLI both open it here.
 * DATABASE_URL selects PostgreSQL; otherwise the SQLite file at DATABASE_PATH. Each adapter is loaded only when it
 * is opened, so naming the database (describeDatabase) costs a command line nothing. `serving`: a process that
 * answers requests, whose SQLite file is checkpointed on a thread of its own (sqlite/checkpoints.ts).
 */
export async function openStore(config: StoreConfig, random: Random = cryptoRandom, { serving = false } = {}): Promise<Store> {
  if (config.databaseUrl !== undefined) {
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(config.databaseUrl, random);
  }
  const { openSqliteStore } = await import('./sqlite/index.js');
  return openSqliteStore(config.databasePath, random, { checkpointThread: serving });
}

/**
 * The database the configuration names, safe to print (support/database-line.ts): an SQLite file by its path, and
 * whether it had to be `created`; a PostgreSQL database by host and database only, as its URL may hold a password.
 */
export function describeDatabase(config: { databasePath: string; databaseUrl?: string | undefined }, created: boolean): DatabaseDescription {
  if (config.databaseUrl === undefined) return { kind: 'sqlite', path: config.databasePath, created };
  return { kind: 'postgresql', name: parsePostgresUrl(config.databaseUrl)?.name ?? 'DATABASE_URL' };
}
