import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { checkedLookup, type Resolve } from '../destinations/public-lookup.js';

/** Bytes of an endpoint's answer read at most: its status is what counts; a few words of its body help its owners. */
const ANSWER_BYTES = 1024;

/** One delivery as it goes out. */
export interface Outgoing {
  url: string;
  secret: string;
  eventId: string;
  body: string;
}

/** How an attempt ended: the endpoint's status (null when none came) and, unless it was a 2xx, why it failed. */
export interface Attempt {
  status: number | null;
  error: string | null;
}

export type Send = (outgoing: Outgoing) => Promise<Attempt>;

/**
 * Sends a delivery as Standard Webhooks has it: a POST of the JSON body with `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (signed by the `standardwebhooks` package, MIT, the specification's own implementation). The
 * connection goes to an address resolved and judged in the same step (`lookup`: public only, unless the operator
 * allows private destinations), so DNS cannot swap in another after the check; redirects are not followed; the
 * answer is read to ANSWER_BYTES at most, and everything ends within `timeoutMs`.
 */
export function webhookSender(options: { resolve: Resolve; allowPrivate: () => Promise<boolean>; timeoutMs: number; clock: () => Date }): Send {
  const { resolve, timeoutMs } = options;
  const publicOnly = checkedLookup(resolve, (host) => new Error(`${host} resolves to a private-network address`));
  // Private addresses allowed, the connection still goes where the service's resolver said (a name with none fails).
  const anyAddress = checkedLookup(resolve, (host) => new Error(`${host} has no address`), { allowPrivate: true });

  return async ({ url, secret, eventId, body }) => {
    const sentAt = options.clock();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'shortlinks-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(eventId, sentAt, body),
    };
    const lookup = (await options.allowPrivate()) ? anyAddress : publicOnly;
    return post(url, headers, body, lookup, timeoutMs);
  };
}

function post(url: string, headers: Record<string, string>, body: string, lookup: LookupFunction, timeoutMs: number): Promise<Attempt> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const done = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(attempt);
    };
    const req = request(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, agent: false }, (res) =>
      readAnswer(res, (words) => done(outcomeOf(res.statusCode ?? 0, words))),
    );
    const timer = setTimeout(() => done({ status: null, error: `no answer within ${Math.round(timeoutMs / 1000)} s` }), timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => done({ status: null, error: error.code ?? error.message }));
    req.end(body);
  });
}

/** The first ANSWER_BYTES of the answer's body, as words for the endpoint's owners; the rest is never read. */
function readAnswer(res: IncomingMessage, then: (words: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = () => then(Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8'));
  res.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= ANSWER_BYTES) finish();
  });
  res.on('end', finish);
  res.on('error', finish);
}

function outcomeOf(status: number, words: string): Attempt {
  if (status >= 200 && status < 300) return { status, error: null };
  // A redirect is an answer like any other that is not a 2xx: where it points is never followed.
  const said = words.replace(/\s+/g, ' ').trim().slice(0, 200);
  return { status, error: `answered ${status}${said === '' ? '' : `: ${said}`}` };
}
