import { createHash } from 'node:crypto';
import type { RateLimiter, WindowAnswer } from '../support/rate-limiter.js';
import { networkOf } from '../support/address-group.js';
import {
  DOCUMENT_FETCHES_PER_NETWORK_PER_MINUTE,
  FAILING_HOST_FETCHES_PER_HOST_PER_MINUTE,
  FAILING_HOST_FETCHES_PER_MINUTE,
  FAILING_HOST_MS,
  KNOWN_DOCUMENT_FETCHES_PER_MINUTE,
  KNOWN_DOCUMENT_MS,
  NEW_DOCUMENT_FETCHES_PER_HOST_PER_MINUTE,
  NEW_DOCUMENT_FETCHES_PER_MINUTE,
} from './lifetimes-and-limits.js';

const MINUTE_MS = 60_000;

/** One metadata document fetch about to be made. */
export interface PlannedFetch {
  clientId: string;
  /** The host the limits count it under (MetadataDocuments.check). */
  host: string;
  /** The requesting client's addressGroup key; null for a lookup within a request whose client was found already. */
  from: string | null;
  /** A person approved this client here (its row is stored). */
  approved: boolean;
}

/**
 * The allowances metadata document fetches count in (the numbers and why: lifetimes-and-limits.ts), kept so that
 * fetches that fail cannot starve the ones that work: a known client has an allowance failures never touch, a new
 * one another, and a host whose fetches failed fetches from a smaller one of its own. What is known of clients and
 * hosts (a document was valid, a fetch failed) is kept in the rate limiter too, as a window of one whose call says
 * it happened within the window (once the window has passed, the next time starts another). So every process sees
 * it, as it sees every allowance.
 */
export function fetchAllowances(rates: RateLimiter) {
  // Hashed: a client_id may be a long URL, and it need not be readable in the limiter.
  const servedKey = (clientId: string) => `documents:served:${createHash('sha256').update(clientId).digest('base64url')}`;
  const servedHostKey = (host: string) => `documents:served-host:${host}`;
  const failedHostKey = (host: string) => `documents:failed-host:${host}`;
  /** Whether `key`'s window of one holds its call (it happened within `windowMs`). */
  const happened = async (key: string, windowMs: number, nowMs: number) => !(await rates.peek(key, 1, windowMs, nowMs)).allowed;
  /** Records that `key` happened, unless it did within the window: a take refused would count as a refusal in the metrics. */
  const note = async (key: string, windowMs: number, nowMs: number) => {
    if (!(await happened(key, windowMs, nowMs))) await rates.take(key, 1, windowMs, nowMs);
  };

  const networkKey = (fetch: PlannedFetch) => `documents:network:${networkOf(fetch.from ?? 'internal')}`;

  /** The allowances `fetch` counts in, by what is known of its client_id and host. */
  async function allowancesOf(fetch: PlannedFetch, nowMs: number): Promise<[string, number][]> {
    const network: [string, number] = [networkKey(fetch), DOCUMENT_FETCHES_PER_NETWORK_PER_MINUTE];
    if (fetch.approved || (await happened(servedKey(fetch.clientId), KNOWN_DOCUMENT_MS, nowMs))) {
      return [network, ['documents:known', KNOWN_DOCUMENT_FETCHES_PER_MINUTE]];
    }
    // Junk paths on a host that serves valid documents must not make it a failing host for its new clients.
    const failing = (await happened(failedHostKey(fetch.host), FAILING_HOST_MS, nowMs)) && !(await happened(servedHostKey(fetch.host), KNOWN_DOCUMENT_MS, nowMs));
    // One key per host for both kinds, so a host that starts failing keeps what it fetched this minute counted.
    const host = `documents:host:${fetch.host}`;
    return failing
      ? [network, [host, FAILING_HOST_FETCHES_PER_HOST_PER_MINUTE], ['documents:failing', FAILING_HOST_FETCHES_PER_MINUTE]]
      : [network, [host, NEW_DOCUMENT_FETCHES_PER_HOST_PER_MINUTE], ['documents:new', NEW_DOCUMENT_FETCHES_PER_MINUTE]];
  }

  return {
    /**
     * Takes one fetch from each allowance `fetch` counts in, or from none when any is used up (so a refusal costs
     * the others nothing). Answers the first allowance that refused, or null when the fetch may go ahead.
     */
    async take(fetch: PlannedFetch, nowMs: number): Promise<WindowAnswer | null> {
      // A network past its allowance (what a flood from one is) is refused before the look-ups that sort fetches.
      const network = await rates.peek(networkKey(fetch), DOCUMENT_FETCHES_PER_NETWORK_PER_MINUTE, MINUTE_MS, nowMs);
      if (!network.allowed) return network;
      const answers = await rates.takeAll(await allowancesOf(fetch, nowMs), MINUTE_MS, nowMs);
      return answers.find((answer) => !answer.allowed) ?? null;
    },
    /** The document at `clientId` was valid: the client and its host are known for a while. */
    async served(clientId: string, host: string, nowMs: number): Promise<void> {
      await note(servedKey(clientId), KNOWN_DOCUMENT_MS, nowMs);
      await note(servedHostKey(host), KNOWN_DOCUMENT_MS, nowMs);
    },
    /** A fetch from `host` failed: it is a failing host for a while. */
    async failed(host: string, nowMs: number): Promise<void> {
      await note(failedHostKey(host), FAILING_HOST_MS, nowMs);
    },
  };
}

export type FetchAllowances = ReturnType<typeof fetchAllowances>;
