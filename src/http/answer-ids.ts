import type { ServerResponse } from 'node:http';

/**
 * The ids every answer carries: `X-Request-Id`, and with WORKERS above 1 `X-Served-By`, the process that answered
 * (its pid), so an operator can tell which worker it was. A redirect writes both with its other headers in its one
 * writeHead instead (redirect/handler.ts): any setHeader before writeHead makes Node merge every header one by one.
 */
export function stampIds(res: ServerResponse, requestId: string, servedBy: string | null): void {
  res.setHeader('X-Request-Id', requestId);
  if (servedBy !== null) res.setHeader('X-Served-By', servedBy);
}
