import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an id from a proxy may look like: a UUID, a hex string, a trace id; nothing that could break a log line. */
const SHAPE = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/**
 * The id of a request, which its answer carries as `X-Request-Id` and its log lines as `requestId`: the one a
 * trusted reverse proxy sent (so one id follows the request through the proxy's log and ours), or a new UUID. A
 * client's own header is not taken: anyone could then make log lines look like another request's.
 */
export function requestIdOf(trusted: (req: IncomingMessage) => boolean) {
  return (req: IncomingMessage): string => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && trusted(req) && SHAPE.test(given) ? given : randomUUID();
  };
}
