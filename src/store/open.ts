import type { Config } from '../config.js';
import { cryptoRandom, type Random } from '../domain/random.js';
import type { Store } from './ports.js';
import { openSqliteStore } from './sqlite/index.js';

/**
 * The one place the store is picked from configuration; the server and the operator CLI both open it here.
 * DATABASE_URL selects PostgreSQL (loaded only then); otherwise the SQLite file at DATABASE_PATH.
 */
export async function openStore(config: Pick<Config, 'databasePath' | 'databaseUrl'>, random: Random = cryptoRandom): Promise<Store> {
  if (config.databaseUrl !== undefined) {
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(config.databaseUrl, random);
  }
  return openSqliteStore(config.databasePath, random);
}
