import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOutage, isStorageFailure, isTimeout, readStoreFailuresWith, storeFailureOf, toApiError } from '../../src/errors.js';
import { postgresFailure } from '../../src/store/postgres/failures.js';
import type { Store } from '../../src/store/ports.js';
import { sqliteFailure } from '../../src/store/sqlite/failures.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

/**
 * Each adapter reads its own driver's errors (store/sqlite/failures.ts, store/postgres/failures.ts) and registers
 * its reader with errors.ts as it opens; errors.ts asks the readers when it turns an error into the answer. The
 * database unable to store what it was given (a full disk, a failing one, PostgreSQL short of a resource) is no
 * fault of the request and no fault of ours to trace: 503 service_unavailable with a minute to wait, as the outages
 * are 503 with a few seconds. test/store/postgres-failures.test.ts reads a real PostgreSQL adapter's failure.
 */
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

// The errors below are each driver's, as they leave its adapter: read once the adapter opened, as in the service.
// SQLite's adapter registers its reader as it opens; PostgreSQL's is registered as its adapter would, for there is
// no cluster in this project (test/store/postgres-failures.test.ts opens one).
let opened: Store;
beforeAll(() => {
  opened = openSqliteStore(':memory:');
  readStoreFailuresWith(postgresFailure);
});
afterAll(() => opened.close());

describe('toApiError: the database unable to store', () => {
  it.each([
    ['SQLite with its disk full (SQLITE_FULL)', withCode('SQLITE_FULL', 'database or disk is full')],
    ['a SQLite disk I/O error (SQLITE_IOERR)', withCode('SQLITE_IOERR', 'disk I/O error')],
    ['a SQLite write that failed (SQLITE_IOERR_WRITE)', withCode('SQLITE_IOERR_WRITE')],
    ['a SQLite fsync that failed (SQLITE_IOERR_FSYNC)', withCode('SQLITE_IOERR_FSYNC')],
    ['a file write with no space left (ENOSPC)', withCode('ENOSPC')],
    ['PostgreSQL disk_full (53100)', withCode('53100', 'could not extend file "base/16384/16385": No space left on device')],
    ['PostgreSQL out_of_memory (53200)', withCode('53200')],
    ['PostgreSQL configuration_limit_exceeded (53400)', withCode('53400')],
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
      thrown = error;
    }
    db.close();
    expect((thrown as { code?: string }).code).toBe('SQLITE_FULL');
    expect(toApiError(thrown).status).toBe(503);
  });

  it.each([
    ['too many connections (53300): an outage, with its 5 s', withCode('53300'), 503],
    ['a unique violation (23505)', withCode('23505'), 500],
    ['a SQLite constraint (SQLITE_CONSTRAINT_UNIQUE)', withCode('SQLITE_CONSTRAINT_UNIQUE'), 500],
    ['SQLite read-only (SQLITE_READONLY)', withCode('SQLITE_READONLY'), 500],
    ['a code that only starts like class 53 (531)', withCode('531'), 500],
    ['an error without a code', new Error('No space left on device'), 500],
  ])('%s: not a storage failure', (_, error, status) => {
    expect(isStorageFailure(error)).toBe(false);
    expect(toApiError(error).status).toBe(status);
  });
});

describe('toApiError: the database out of reach', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a host out of reach', withCode('EHOSTUNREACH')],
    ['a connection reset as it starts', withCode('ECONNRESET')],
    ['PostgreSQL shutting down (57P01)', withCode('57P01')],
    ['PostgreSQL starting (57P03)', withCode('57P03')],
    ['a connection exception (08006)', withCode('08006')],
    ['too many connections (53300)', withCode('53300')],
    ['SQLite busy past its wait', withCode('SQLITE_BUSY')],
    ["pg's connection cut", new Error('Connection terminated unexpectedly')],
    ["pg-pool's wait for a connection", new Error('timeout exceeded when trying to connect')],
    ['a statement unanswered past its timeout', new Error('Query read timeout')],
    ['a client whose connection broke between statements', new Error('Client has encountered a connection error and is not queryable')],
  ])('%s: 503 service_unavailable, retry in 5 s', (_, error) => {
    const failed = toApiError(error);
    expect([failed.status, failed.code, failed.retryAfter]).toEqual([503, 'service_unavailable', 5]);
    expect(failed.detail).toBe('The database cannot be reached right now; retry in a few seconds.');
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['a protocol violation (08P01): a fault, not an outage', withCode('08P01')],
    ['a syntax error (42601)', withCode('42601')],
    ['a plain fault', new TypeError('x is undefined')],
    ['something thrown that is no error', 'oops'],
  ])('%s: still 500, our fault', (_, error) => {
    expect(toApiError(error).code).toBe('internal_server_error');
  });

  it("is each adapter's own reading: a driver's code means nothing to the other adapter", () => {
    expect(sqliteFailure(withCode('ECONNREFUSED'))).toBeNull();
    expect(sqliteFailure(withCode('53100'))).toBeNull();
    expect(sqliteFailure(new Error('Connection terminated unexpectedly'))).toBeNull();
    expect(postgresFailure(withCode('SQLITE_BUSY'))).toBeNull();
    expect(postgresFailure(withCode('SQLITE_FULL'))).toBeNull();
    expect(postgresFailure(withCode('ENOSPC'))).toBeNull();
  });
});

describe('isTimeout: an outage that may be a slow statement of ours, logged as a fault', () => {
  it('is a statement or a connection not answered in time, or SQLite busy; not a cut connection', () => {
    expect(isTimeout(new Error('Query read timeout'))).toBe(true);
    expect(isTimeout(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isTimeout(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isTimeout(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isTimeout(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
  });

  it('is a row lock not had within lock_timeout (55P03)', () => {
    expect(isTimeout(withCode('55P03'))).toBe(true);
  });
});

describe('storeFailureOf: what the readers of the opened adapters find', () => {
  it('is null for what no reader knows: an unknown code, none, something thrown that is no error', () => {
    for (const error of [withCode('EACCES'), withCode('SQLITE_MISUSE'), withCode('22P02'), new Error('Connection refused'), 'oops', undefined, null]) {
      expect(storeFailureOf(error)).toBeNull();
    }
  });

  it("reads the driver's own error, not one that wraps it: what a caller makes of a failure is its own", () => {
    const full = withCode('SQLITE_FULL', 'database or disk is full');
    expect(storeFailureOf(full)).toBe('storage');
    expect(storeFailureOf(new Error('could not save', { cause: full }))).toBeNull();
  });

  it('reads what a real adapter call threw, as it left the adapter: SQLite busy past its wait is a timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortlinks-failures-'));
    const path = join(dir, 'busy.db');
    const store = openSqliteStore(path);
    // Another process's long write (the operator CLI's, say) holds the file's write lock past the busy timeout.
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const thrown = await store.people.add({ email: 'busy@example.com', passwordHash: null, agreedTerms: true }, new Date()).catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(Database.SqliteError);
      expect(thrown).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(storeFailureOf(thrown)).toBe('timeout');
      const failed = toApiError(thrown);
      expect([failed.status, failed.code, failed.retryAfter]).toEqual([503, 'service_unavailable', 5]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is null for a real adapter failure that is a fault of ours: a call on a closed store', async () => {
    const store = openSqliteStore(':memory:');
    await store.close();
    const thrown = await store.people.get('person_x').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(TypeError);
    expect(storeFailureOf(thrown)).toBeNull();
    expect(toApiError(thrown).code).toBe('internal_server_error');
  });
});
