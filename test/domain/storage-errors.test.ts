import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isOutage, isStorageFailure, toApiError } from '../../src/errors.js';

/**
 * The database unable to store what it was given (a full disk, a failing one, PostgreSQL short of a resource) is
 * no fault of the request and no fault of ours to trace: 503 service_unavailable with a minute to wait, as the
 * outages are 503 with a few seconds.
 */
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

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
