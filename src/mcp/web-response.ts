import type { ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';

/**
 * Writes a web-standard Response (what the SDK's fetch face and its transports answer) to a node:http response: a
 * JSON answer in one write, a stream (SSE) as it comes. It lets /mcp hand the SDK the one Request it already built
 * to tell the revisions apart, instead of the adapter building a second one from the same node request.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.appendHeader(name, value));
  if (response.body === null) return void res.end();
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // When the client goes away, pipeline destroys the source, which cancels the SDK's stream: the transport then
    // forgets it (a session allows one GET stream at a time, so a stale one would refuse the client's next).
    // The headers go out at once, not with the first event: a listening stream (GET) may carry none for long, and
    // its client should know it is open (and a closing server can end it cleanly, see http/drain.ts).
    res.flushHeaders();
    pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res, () => {});
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}
