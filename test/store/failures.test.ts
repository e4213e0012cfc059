import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isOutage, isStorageFailure, isTimeout, storeFailureOf, toApiError } from '../../src/errors.js';
import { guardFailures, told, type FailureReader } from '../../src/store/failure-guard.js';
import type { Store } from '../../src/store/ports.js';
import { postgresFailure } from '../../src/store/postgres/failures.js';
import { sqliteFailure } from '../../src/store/sqlite/failures.js';

/**
 * Each adapter reads its own driver's errors (store/sqlite/failures.ts, store/postgres/failures.ts) and tells the
 * service what they mean beside the error itself (store/failure-guard.ts); errors.ts turns that verdict into the
 * answer. The database unable to store what it was given (a full disk, a failing one, PostgreSQL short of a
 * resource) is no fault of the request and no fault of ours to trace: 503 service_unavailable with a minute to wait,
 * as the outages are 503 with a few seconds.
 */
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** The error as it leaves the SQLite adapter, or the PostgreSQL adapter. */
const fromSqlite = (error: unknown) => told(sqliteFailure, error);
const fromPostgres = (error: unknown) => told(postgresFailure, error);

describe('toApiError: the database unable to store', () => {
  it.each([
    ['SQLite with its disk full (SQLITE_FULL)', fromSqlite(withCode('SQLITE_FULL', 'database or disk is full'))],
    ['a SQLite disk I/O error (SQLITE_IOERR)', fromSqlite(withCode('SQLITE_IOERR', 'disk I/O error'))],
    ['a SQLite write that failed (SQLITE_IOERR_WRITE)', fromSqlite(withCode('SQLITE_IOERR_WRITE'))],
    ['a SQLite fsync that failed (SQLITE_IOERR_FSYNC)', fromSqlite(withCode('SQLITE_IOERR_FSYNC'))],
    ['a file write with no space left (ENOSPC)', fromSqlite(withCode('ENOSPC'))],
    ['PostgreSQL disk_full (53100)', fromPostgres(withCode('53100', 'could not extend file "base/16384/16385": No space left on device'))],
    ['PostgreSQL out_of_memory (53200)', fromPostgres(withCode('53200'))],
    ['PostgreSQL configuration_limit_exceeded (53400)', fromPostgres(withCode('53400'))],
  ])('%s: 503 service_unavailable, retry in 60 s', (_, error) => {
    const failed = toApiError(error);
    expect([failed.status, failed.code, failed.retryAfter, failed.field]).toEqual([503, 'service_unavailable', 60, null]);
    expect(failed.detail).toBe('The service cannot store anything right now; retry in a minute.');
    expect(isStorageFailure(error)).toBe(true);
    expect(isOutage(error)).toBe(false);
  });

  it('is what better-sqlite3 throws for a full database', () => {
    // max_page_count caps the file as a full disk does, and SQLite answers the same SQLITE_FULL.
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x TEXT)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    let thrown: unknown;
    try {
      db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(10_000));
    } catch (error) {
      thrown = fromSqlite(error);
    }
    db.close();
    expect((thrown as { code?: string }).code).toBe('SQLITE_FULL');
    expect(toApiError(thrown).status).toBe(503);
  });

  it.each([
    ['too many connections (53300): an outage, with its 5 s', fromPostgres(withCode('53300')), 503],
    ['a unique violation (23505)', fromPostgres(withCode('23505')), 500],
    ['a SQLite constraint (SQLITE_CONSTRAINT_UNIQUE)', fromSqlite(withCode('SQLITE_CONSTRAINT_UNIQUE')), 500],
    ['SQLite read-only (SQLITE_READONLY)', fromSqlite(withCode('SQLITE_READONLY')), 500],
    ['a code that only starts like class 53 (531)', fromPostgres(withCode('531')), 500],
    ['an error without a code', fromSqlite(fromPostgres(new Error('No space left on device'))), 500],
  ])('%s: not a storage failure', (_, error, status) => {
    expect(isStorageFailure(error)).toBe(false);
    expect(toApiError(error).status).toBe(status);
  });
});

describe('toApiError: the database out of reach', () => {
  it.each([
    ['a refused connection', fromPostgres(withCode('ECONNREFUSED'))],
    ['a host out of reach', fromPostgres(withCode('EHOSTUNREACH'))],
    ['a connection reset as it starts', fromPostgres(withCode('ECONNRESET'))],
    ['PostgreSQL shutting down (57P01)', fromPostgres(withCode('57P01'))],
    ['PostgreSQL starting (57P03)', fromPostgres(withCode('57P03'))],
    ['a connection exception (08006)', fromPostgres(withCode('08006'))],
    ['too many connections (53300)', fromPostgres(withCode('53300'))],
    ['SQLite busy past its wait', fromSqlite(withCode('SQLITE_BUSY'))],
    ["pg's connection cut", fromPostgres(new Error('Connection terminated unexpectedly'))],
    ["pg-pool's wait for a connection", fromPostgres(new Error('timeout exceeded when trying to connect'))],
    ['a statement unanswered past its timeout', fromPostgres(new Error('Query read timeout'))],
    ['a client whose connection broke between statements', fromPostgres(new Error('Client has encountered a connection error and is not queryable'))],
  ])('%s: 503 service_unavailable, retry in 5 s', (_, error) => {
    const failed = toApiError(error);
    expect([failed.status, failed.code, failed.retryAfter]).toEqual([503, 'service_unavailable', 5]);
    expect(failed.detail).toBe('The database cannot be reached right now; retry in a few seconds.');
  });

  it.each([
    ['a unique violation (23505)', fromPostgres(withCode('23505'))],
    ['a protocol violation (08P01): a fault, not an outage', fromPostgres(withCode('08P01'))],
    ['a syntax error (42601)', fromPostgres(withCode('42601'))],
    ['a plain fault', fromSqlite(fromPostgres(new TypeError('x is undefined')))],
    ['something thrown that is no error', fromSqlite(fromPostgres('oops'))],
  ])('%s: still 500, our fault', (_, error) => {
    expect(toApiError(error).code).toBe('internal_server_error');
  });

  it("is each adapter's own reading: a driver's code means nothing to the other adapter, nor untold", () => {
    expect(sqliteFailure(withCode('ECONNREFUSED'))).toBeNull();
    expect(sqliteFailure(withCode('53100'))).toBeNull();
    expect(postgresFailure(withCode('SQLITE_BUSY'))).toBeNull();
    expect(postgresFailure(withCode('SQLITE_FULL'))).toBeNull();
    expect(toApiError(withCode('SQLITE_FULL')).status).toBe(500);
  });
});

describe('isTimeout: an outage that may be a slow statement of ours, logged as a fault', () => {
  it('is a statement or a connection not answered in time, or SQLite busy; not a cut connection', () => {
    expect(isTimeout(fromPostgres(new Error('Query read timeout')))).toBe(true);
    expect(isTimeout(fromPostgres(new Error('timeout exceeded when trying to connect')))).toBe(true);
    expect(isTimeout(fromSqlite(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })))).toBe(true);
    expect(isTimeout(fromPostgres(new Error('Connection terminated unexpectedly')))).toBe(false);
    expect(isTimeout(fromPostgres(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })))).toBe(false);
  });

  it('is a row lock not had within lock_timeout (55P03)', () => {
    expect(isTimeout(fromPostgres(withCode('55P03')))).toBe(true);
  });
});

describe('guardFailures: the adapter tells what its failures mean as they leave it', () => {
  const full = () => withCode('SQLITE_FULL', 'database or disk is full');
  class Changes {
    readonly cachesCheckThemselves = true;
    told = 0;
    async catchUp(): Promise<void> {
      this.told += 1;
      throw full();
    }
  }
  const changes = new Changes();
  const read: FailureReader = sqliteFailure;
  const store = guardFailures(
    {
      links: {
        findByCode: async () => {
          throw full();
        },
        findByName: () => {
          throw full();
        },
      },
      changes,
      ready: async () => {
        throw withCode('SQLITE_IOERR_WRITE');
      },
    } as unknown as Store,
    read,
  );

  it('tells a rejection and a synchronous throw, rethrowing the very error', async () => {
    const rejected = await store.links.findByCode('x').catch((error: unknown) => error);
    expect(rejected).toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' });
    expect(storeFailureOf(rejected)).toBe('storage');
    let thrown: unknown;
    try {
      void store.links.findByName('x');
    } catch (error) {
      thrown = error;
    }
    expect(storeFailureOf(thrown)).toBe('storage');
    expect(storeFailureOf(await store.ready().catch((error: unknown) => error))).toBe('storage');
  });

  it("keeps a class instance's methods on the instance, and reads its other properties through", async () => {
    expect(storeFailureOf(await store.changes.catchUp().catch((error: unknown) => error))).toBe('storage');
    expect(changes.told).toBe(1);
    expect(store.changes.cachesCheckThemselves).toBe(true);
  });
});
