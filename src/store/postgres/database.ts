import pg from 'pg';
import { migrations } from './migrations.js';
import { NulGuardedClient } from './nul-guard.js';

export type PgPool = pg.Pool;

/** The PostgreSQL store's connections, migrated; `close()` ends them all. */
export interface PgDatabase {
  pool: PgPool;
  close(): Promise<void>;
}

/**
 * Any fixed number, the same in every process of this service: the advisory lock under which migrations run, so
 * processes starting together against one database migrate it exactly once.
 */
const MIGRATION_LOCK = 5_307_201_101;

const VERSIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * bigint (epoch milliseconds, link seqs, counts) read as a JavaScript number, as the ports carry them; they stay far
 * below 2^53, and a value that does not is an error rather than a silently rounded number. Set on this pool only:
 * pg.types.setTypeParser would change every pool of the process.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid !== pg.types.builtins.INT8 || format === 'binary') return pg.types.getTypeParser(oid, format);
    return (value: string) => {
      const number = Number(value);
      if (!Number.isSafeInteger(number)) throw new RangeError(`bigint ${value} is beyond a safe JavaScript integer`);
      return number;
    };
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * How long a statement may wait for PostgreSQL's answer, and a request for a connection, before the request is
 * answered 503 (errors.ts): a server that stopped answering (frozen, or a network that drops packets without a
 * word) would otherwise hold every request forever. Far beyond any statement of a request (milliseconds) or of a
 * copy-database batch; migrations, which may build an index over millions of links, run without it.
 */
export const QUERY_TIMEOUT_MS = 10_000;
/** For the few statements over all of a team's links (deleting a team): minutes, not forever. */
export const LONG_STATEMENT_MS = 600_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens a pool on a `postgres://` URL and applies the migrations the database has not seen yet. `limited: false`
 * (copy-database, whose transaction counts and locks whole tables) opens it without the timeouts above.
 */
export async function openDatabase(url: string, options: { limited?: boolean } = {}): Promise<PgDatabase> {
  await migrate(url);
  const limits = options.limited === false ? {} : { query_timeout: QUERY_TIMEOUT_MS, connectionTimeoutMillis: CONNECT_TIMEOUT_MS };
  const pool = new pg.Pool({ connectionString: url, types, Client: NulGuardedClient, ...limits });
  // A connection that breaks (a server restart, the network, pg_terminate_backend) emits 'error'. Idle in the
  // pool, the pool's listener takes it and drops the connection; checked out, the pool listens no more, and the
  // event would end the process. So every connection listens for good: the query it was running fails (a 503 to
  // its caller, errors.ts), and the transaction hands the connection back broken, to be replaced.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return { pool, close: () => pool.end() };
}

/**
 * Applies the missing migrations in order, each in its own transaction holding the migration lock; the version is
 * read after the lock is taken, so a process that waited sees what the other applied and does not apply it again.
 * On a connection of its own, with no statement timeout.
 */
async function migrate(url: string): Promise<void> {
  const client: pg.Client = new NulGuardedClient({ connectionString: url, types });
  client.on('error', () => {});
  await client.connect();
  try {
    for (;;) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query(VERSIONS);
        const { rows } = await client.query<{ applied: number }>(
          'SELECT coalesce(max(version), 0) AS applied FROM schema_migrations',
        );
        const applied = rows[0]!.applied;
        if (applied >= migrations.length) {
          await client.query('COMMIT');
          return;
        }
        await client.query(migrations[applied]!);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [applied + 1]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    }
  } finally {
    await client.end().catch(() => {});
  }
}
