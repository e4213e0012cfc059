import { describe, expect, it } from 'vitest';
import { ApiError, apiError, errorCatalogue, isTimeout, toApiError } from '../../src/errors.js';

describe('apiError: one named constructor per code', () => {
  it('has exactly one constructor per code of the table, each making that code with its status', () => {
    const catalogue = errorCatalogue();
    expect(Object.keys(apiError)).toHaveLength(catalogue.length);
    for (const { code, status, detail } of catalogue) {
      const name = code.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as keyof typeof apiError;
      const made = apiError[name]();
      expect(made, code).toBeInstanceOf(ApiError);
      expect([made.code, made.status, made.detail, made.field, made.retryAfter]).toEqual([code, status, detail, null, undefined]);
    }
  });

  it('takes the detail, the field and the seconds to wait when it is made', () => {
    const made = apiError.limitReached('20 new links an hour.', 'links[2]', 120);
    expect(made.toProblem('https://links.example')).toEqual({
      type: 'https://links.example/docs/errors#limit_reached',
      title: 'Limit reached',
      status: 429,
      code: 'limit_reached',
      detail: '20 new links an hour.',
      field: 'links[2]',
    });
    expect(made.retryAfter).toBe(120);
  });

  it('turns anything else thrown into a 500 that shows nothing of it', () => {
    const made = toApiError(new Error('disk on fire'));
    expect([made.code, made.status, made.detail]).toEqual(['internal_server_error', 500, 'Something went wrong on our side.']);
  });
});

describe('toApiError: the database out of reach', () => {
  const withCode = (code: string) => Object.assign(new Error('x'), { code });

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
});

describe('isTimeout: an outage that may be a slow statement of ours, logged as a fault', () => {
  it('is a statement or a connection not answered in time, or SQLite busy; not a cut connection', () => {
    expect(isTimeout(new Error('Query read timeout'))).toBe(true);
    expect(isTimeout(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isTimeout(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isTimeout(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isTimeout(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
