import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import { copySqliteToPostgres, type CopyCounts } from '../store/copy/copy.js';
import { CopyRefused } from '../store/copy/plan.js';
import { openDatabase as openPostgres, type PgDatabase, type PgPool } from '../store/postgres/database.js';
import { openDatabase as openSqlite } from '../store/sqlite/database.js';
import { parsePostgresUrl, scrub, type PostgresUrl } from '../store/postgres/url.js';
import { required, type Args } from './args.js';
import type { StandaloneCommand } from './command.js';
import { dataError, usageError } from './errors.js';

/** What copy-database did: rows per table (the same in both databases), and where they went (no password). */
export interface CopyResult {
  tables: CopyCounts;
  to: string;
}

/**
 * `copy-database --to postgres://...`: moving house from the SQLite file at DATABASE_PATH to an empty PostgreSQL
 * database. The URL is never printed (it may hold a password), only its host and database.
 */
export async function copyToPostgres(args: Args, config: Pick<Config, 'databasePath' | 'databaseUrl'>): Promise<CopyResult> {
  // With DATABASE_URL set the service already runs on PostgreSQL: DATABASE_PATH is then not the live database, and
  // copying it would move stale data. Not echoed: it may hold a password.
  if (config.databaseUrl !== undefined) {
    throw usageError('copy-database copies the SQLite database at DATABASE_PATH; run it without DATABASE_URL set');
  }
  const target = parsePostgresUrl(required(args, 'to'));
  if (!target) throw usageError('--to must be a postgres:// URL naming a database: postgres://user:password@host:port/database');
  // Opening would create an empty file, and copying nothing would look like success.
  if (!existsSync(config.databasePath)) throw dataError(`no SQLite database at ${config.databasePath}`);

  const sqlite = openSqlite(config.databasePath);
  try {
    const tables = await copyInto(target, (pool) => copySqliteToPostgres(sqlite, pool));
    return { tables: Object.fromEntries(Object.entries(tables).sort(([a], [b]) => a.localeCompare(b))), to: target.name };
  } finally {
    sqlite.close();
  }
}

/** Runs the copy on a pool of the target; every failure becomes one line naming the target, never its password. */
async function copyInto(target: PostgresUrl, copy: (pool: PgPool) => Promise<CopyCounts>): Promise<CopyCounts> {
  let postgres: PgDatabase | undefined;
  try {
    // Opening migrates a fresh database, so the copy finds the service's tables there.
    // Without the statement timeout of a server's requests: counting and locking whole tables may take longer.
    postgres = await openPostgres(target.url, { limited: false });
    return await copy(postgres.pool);
  } catch (error) {
    const reason = scrub(error instanceof Error ? error.message : String(error), target);
    if (error instanceof CopyRefused) throw dataError(`${reason}; nothing was copied to ${target.name}`);
    throw dataError(`could not copy to ${target.name}: ${reason}`);
  } finally {
    await postgres?.close();
  }
}

const resultText = ({ tables, to }: CopyResult): string => {
  const width = Math.max(...Object.keys(tables).map((name) => name.length));
  const lines = Object.entries(tables).map(([name, count]) => `  ${name.padEnd(width)}  ${String(count).padStart(9)}`);
  return [`copied to ${to}; rows in each table, the same in both databases:`, ...lines].join('\n');
};

export const copyDatabase: StandaloneCommand = {
  async execute(args, config) {
    const result = await copyToPostgres(args, config);
    return { json: result, text: resultText(result) };
  },
};
