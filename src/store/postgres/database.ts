import pg from 'pg';
import { migrations } from './migrations.js';
import { NulGuardedClient } from './nul-guard.js';
import { StallGuard } from './stall-guard.js';

export type PgPool = pg.Pool;

/** The PostgreSQL store's connections, migrated; `close()` ends them all. */
export interface PgDatabase {
  /** The ordinary share: every call's reads and transactions. */
  pool: PgPool;
  /** The reserved share: the short reads on every request's path (see ORDINARY_SHARE). */
  reserved: PgPool;
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
 * How long a request may wait on PostgreSQL, in one place (docs/behaviour.md, "Several machines (PostgreSQL)"). A
 * server that stopped answering (frozen, or a network that drops packets without a word) would otherwise hold every
 * request forever; past these the request answers 503 (errors.ts). Each process holds two pools:
 *
 * - the reserved share, RESERVED_SHARE connections for the short reads on the path of every request (catching up,
 *   a token's grant, a membership, a link by code or name, the calls-per-minute take, the health check): a statement
 *   there takes milliseconds, so waiting RESERVED_WAIT_MS for a connection or for an answer means the database is
 *   not answering, and the stall guard then fails every request at once until it answers again (stall-guard.ts);
 * - the ordinary share, ORDINARY_SHARE connections for everything else: CONNECT_TIMEOUT_MS for a connection,
 *   QUERY_TIMEOUT_MS for a statement, far beyond any statement of a request (milliseconds) or of a copy-database
 *   batch; migrations, which may build an index over millions of links, run without it.
 *
 * So calls of one team queued on its rows can hold every ordinary connection, never the reserved ones: redirects and
 * other teams' reads go on. And a statement waits at most LOCK_TIMEOUT_MS for a row lock (PostgreSQL's
 * lock_timeout), then gives up with a 503 and frees its connection, rather than holding it for a whole statement.
 */
export const ORDINARY_SHARE = 7;
export const RESERVED_SHARE = 3;
export const CONNECT_TIMEOUT_MS = 5_000;
export const QUERY_TIMEOUT_MS = 10_000;
export const RESERVED_WAIT_MS = 3_000;
export const LOCK_TIMEOUT_MS = 3_000;
/** For the few statements over all of a team's links (deleting a team): minutes, not forever. */
export const LONG_STATEMENT_MS = 600_000;

/**
 * Opens the pools on a `postgres://` URL and applies the migrations the database has not seen yet. `limited: false`
 * (copy-database, whose transaction counts and locks whole tables) opens one pool without the limits above, which
 * serves as both shares.
 */
export async function openDatabase(url: string, options: { limited?: boolean } = {}): Promise<PgDatabase> {
  await migrate(url, migrations);
  const base = { connectionString: url, types, Client: NulGuardedClient };
  if (options.limited === false) {
    const pool = listened(new pg.Pool(base));
    return { pool, reserved: pool, close: () => pool.end() };
  }
  const guard = new StallGuard(url);
  const locks = { lock_timeout: LOCK_TIMEOUT_MS };
  const pool = listened(
    guard.pool({ ...base, ...locks, max: ORDINARY_SHARE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS }),
  );
  const reserved = listened(
    guard.pool({ ...base, ...locks, max: RESERVED_SHARE, connectionTimeoutMillis: RESERVED_WAIT_MS, query_timeout: RESERVED_WAIT_MS }, { canary: true }),
  );
  return {
    pool,
    reserved,
    close: async () => {
      guard.close();
      await Promise.all([pool.end(), reserved.end()]);
    },
  };
}

/**
 * A connection that breaks (a server restart, the network, pg_terminate_backend) emits 'error'. Idle in the pool,
 * the pool's listener takes it and drops the connection; checked out, the pool listens no more, and the event would
 * end the process. So every connection listens for good: the query it was running fails (a 503 to its caller,
 * errors.ts), and the transaction hands the connection back broken, to be replaced.
 */
function listened(pool: PgPool): PgPool {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * Applies the migrations of `list` (migrations.ts; a test's own) the database has not seen yet, in order, each in
 * its own transaction holding the migration lock; the version is read after the lock is taken, so a process that
 * waited sees what the other applied and does not apply it again. On a connection of its own, with no statement
 * timeout.
 */
export async function migrate(url: string, list: readonly string[]): Promise<void> {
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
        if (applied >= list.length) {
          await client.query('COMMIT');
          return;
        }
        await client.query(list[applied]!);
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
