import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Writes a web-standard Response (what the SDK's fetch face answers) to a node:http response: a JSON answer in one
 * write, a stream (SSE) as it comes. It lets /mcp hand the SDK the one Request it already built to tell the
 * revisions apart, instead of the adapter building a second one from the same node request.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.appendHeader(name, value));
  if (response.body === null) return void res.end();
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}
