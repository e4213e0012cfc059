import type { StoreFailure } from '../../errors.js';

/**
 * Node's codes for a connection to a server that could not be made or was reset (PostgreSQL refusing or dropping
 * a connection as it starts gives ECONNRESET; the stall guard fails checkouts with ETIMEDOUT). A caller's own
 * socket failing never reaches the store.
 */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** pg's and pg-pool's words for a connection that was cut. */
const PG_CUT = /^(?:Connection terminated|Client has encountered a connection error and is not queryable)/;
/** pg's and pg-pool's words for a connection or a statement that nothing answered in time. */
const PG_TIMEOUT = /^(?:timeout exceeded when trying to connect|Query read timeout)/;

/**
 * What an error of the PostgreSQL adapter means to the service (errors.ts StoreFailure), or null: anything else is
 * a fault or a refusal of ours.
 *
 * - 'timeout': nothing answered in time (isUnanswered), or a row lock not had within lock_timeout (55P03,
 *   database.ts).
 * - 'outage': a connection that could not be made (CONNECT_CODES); a connection exception (SQLSTATE class 08, but
 *   a protocol violation, 08P01, which is a fault); a server shutting down or starting (57P01-57P03) or out of
 *   connections (53300); pg's own words for a cut connection (PG_CUT).
 * - 'storage': PostgreSQL lacks a resource to store what it was given (SQLSTATE class 53: disk_full 53100, out of
 *   memory, a configured limit), but too many connections (53300), which is an outage.
 */
export function postgresFailure(error: unknown): StoreFailure | null {
  if (isUnanswered(error)) return 'timeout';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (code === '55P03') return 'timeout';
    if (CONNECT_CODES.has(code) || (code.startsWith('08') && code !== '08P01') || /^57P0[1-3]$/.test(code) || code === '53300') return 'outage';
    if (code.startsWith('53') && code.length === 5) return 'storage';
  }
  return error instanceof Error && PG_CUT.test(error.message) ? 'outage' : null;
}

/** The database out of reach: an outage or a timeout (postgresFailure). */
export function isOutage(error: unknown): boolean {
  const failure = postgresFailure(error);
  return failure === 'outage' || failure === 'timeout';
}

/**
 * A connection or a statement PostgreSQL gave no answer to in time (a new connection pg-pool gave up making
 * included), as against one it answered with an error: what trips the stall guard (stall-guard.ts).
 */
export function isUnanswered(error: unknown): boolean {
  return error instanceof Error && (PG_TIMEOUT.test(error.message) || error.message === 'Connection terminated due to connection timeout');
}
