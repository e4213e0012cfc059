import type { Config } from '../config.js';
import { cryptoRandom, type Random } from '../domain/random.js';
import type { Store } from './ports.js';
import { openSqliteStore } from './sqlite/index.js';

/** The one place the store is picked from configuration; the server and the operator CLI both open it here. */
export async function openStore(config: Pick<Config, 'databasePath'>, random: Random = cryptoRandom): Promise<Store> {
  return openSqliteStore(config.databasePath, random);
}
