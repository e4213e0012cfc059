import type { ServerResponse } from 'node:http';
import { toApiError } from '../errors.js';
import { setRetryAfter } from './retry-after.js';
import { processLog } from '../observability/logger.js';

/**
 * Sends any error as `application/problem+json`: an ApiError as itself, anything else as a 500 that shows
 * nothing of its cause (which goes to the log, never the caller).
 */
export function sendProblem(res: ServerResponse, err: unknown, publicUrl: string): void {
  const error = toApiError(err);
  if (error.code === 'internal_server_error') processLog().error({ err, requestId: res.getHeader('x-request-id') }, 'Unexpected error');
  setRetryAfter(res, error.retryAfter);
  sendJson(res, error.status, JSON.stringify(error.toProblem(publicUrl)), 'application/problem+json');
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
