import type { ServerResponse } from 'node:http';
import { isOutage, isStorageFailure, isTimeout, toApiError, type ApiError } from '../errors.js';
import { setRetryAfter } from './retry-after.js';
import { processLog } from '../observability/logger.js';
import { writeFailures } from '../observability/write-failures.js';
import { noteFailure } from '../observability/request-facts.js';

/**
 * Sends any error as `application/problem+json`: an ApiError as itself, anything else as a 500 that shows
 * nothing of its cause (which goes to the log, never the caller).
 */
export function sendProblem(res: ServerResponse, err: unknown, publicUrl: string): void {
  const error = failureOf(err, { requestId: res.getHeader('x-request-id') });
  noteFailure(res, error);
  setRetryAfter(res, error.retryAfter);
  sendJson(res, error.status, JSON.stringify(error.toProblem(publicUrl)), 'application/problem+json');
}

/**
 * The ApiError to answer for `err`, once the log has what the operator must know: a fault of ours with its stack
 * (as `fault`); the database not answering in time with its stack too (a slow statement looks the same); the
 * database out of reach in a line without one (no fault of ours to trace, but to hear of); the database unable to
 * store (a full disk) told as one condition, once a minute (observability/write-failures.ts).
 */
export function failureOf(err: unknown, context: Record<string, unknown> = {}, fault = 'Unexpected error'): ApiError {
  const error = toApiError(err);
  if (error.code === 'internal_server_error') processLog().error({ err, ...context }, fault);
  else if (isTimeout(err)) processLog().error({ err, ...context }, 'The database did not answer in time');
  else if (isOutage(err)) processLog().warn({ reason: (err as Error).message, ...context }, 'Database out of reach');
  else if (isStorageFailure(err)) writeFailures.failed(err);
  return error;
}

/** True while an answer can still be written: headers not sent and the connection still open. */
export function canAnswer(res: ServerResponse): boolean {
  const socket = res.socket;
  return !res.headersSent && !res.destroyed && socket !== null && !socket.destroyed;
}

export function sendJson(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}
