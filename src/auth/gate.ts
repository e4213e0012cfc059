import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, toApiError, type ApiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { callerOfAccessToken, isAccessToken, type OAuthAccess } from './access-tokens.js';
import { protectedResource } from './protected-resource.js';
import { CALL_WINDOW_MS, setRateLimitHeaders, type BudgetAnswer } from './call-budget.js';
import { bearerOf, callerOfToken, tokenHolder } from './personal-token.js';
import type { ClientAddress } from '../http/client-address.js';
import { addressGroup } from '../support/address-group.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import { noteCaller } from '../observability/request-facts.js';
import { count } from '../shared/words.js';

/**
 * The door every API and MCP request passes: it finds who is calling, takes one call from their budget (the
 * person's, or the client address's when the token does not check out) and sets the RateLimit headers.
 * It answers `rate_limited` itself; an authentication failure is handed back as a thunk so the surface can first
 * answer what does not need a caller (an unknown operation, a retired version).
 */
export interface Gate {
  /** The HTTP API: personal tokens only. */
  admit(req: IncomingMessage, res: ServerResponse): Promise<() => Caller>;
  /**
   * /mcp: personal tokens, and assistants' OAuth access tokens issued for `PUBLIC_URL/mcp` (`oauth` is then set).
   * Either way the caller is the person, with their budget, also before they agreed to the terms (see `firstStep`).
   */
  admitMcp(req: IncomingMessage, res: ServerResponse): Promise<() => McpCaller>;
  /** Takes one call from a signed-in person's budget (the web app shares it), setting the same headers. */
  count(res: ServerResponse, personId: string): Promise<void>;
  /**
   * A JSON-RPC batch of `requests` requests on /mcp costs one call each. admitMcp took the first before the body
   * was read; this takes the rest from the person's budget, all or none, setting the same headers, and throws 429
   * `rate_limited` when they are not all left (so the batch runs whole or not at all).
   */
  countBatch(res: ServerResponse, personId: string, requests: number): Promise<void>;
  /** Takes one call from the client address's budget (costly pages nobody signs in for, like QR codes). */
  countAddress(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * What a per-address limit counts the client under: its address (behind trusted proxies, from X-Forwarded-For),
   * an IPv6 address by its /64 (see addressGroup). Every per-address limit uses it, so none is evaded by stepping
   * through a /64.
   */
  addressKey(req: IncomingMessage): string;
  /** What the budget counts in; the other limits (sign-ups, registrations ...) count there too, with their own keys. */
  rates: RateLimiter;
}

export interface McpCaller {
  caller: Caller;
  oauth: OAuthAccess | null;
  /**
   * Set while the person has not agreed to the terms: the 403 `first_step` that /mcp answers unless the client can
   * send the person to `PUBLIC_URL/welcome` (URL-mode elicitation).
   */
  firstStep: ApiError | null;
}

export function createGate(deps: {
  store: Store;
  rates: RateLimiter;
  clock: Clock;
  publicUrl: string;
  clientAddress: ClientAddress;
}): Gate {
  const { store, rates, clock, publicUrl, clientAddress } = deps;
  const addressKey = (req: IncomingMessage) => addressGroup(clientAddress(req));

  /**
   * Takes one call from `key`'s budget; sets the RateLimit headers; throws 429 `rate_limited` past it. `limits` is
   * the settings' read, when the caller began it already.
   */
  async function take(res: ServerResponse, key: string, now: Date, limits = store.settings.limits()): Promise<void> {
    const answer = await rates.take(key, (await limits).callsPerMinute, CALL_WINDOW_MS, now.getTime());
    answerWith(res, answer, 'Too many calls');
  }

  /** Sets the RateLimit headers of `answer`; throws 429 `rate_limited`, its detail starting `why`, when refused. */
  function answerWith(res: ServerResponse, answer: BudgetAnswer, why: string): void {
    setRateLimitHeaders(res, answer);
    if (!answer.allowed) {
      throw apiError.rateLimited(`${why}; wait ${count(answer.resetSeconds, 'second')}.`, null, answer.resetSeconds);
    }
  }

  const resource = protectedResource(publicUrl).resource;

  /** Authenticates the bearer token, takes one call from its person's budget (or the address's), hands back a thunk. */
  async function admitWith<T extends { caller: Caller; oauth?: OAuthAccess | null }>(
    req: IncomingMessage,
    res: ServerResponse,
    authenticate: (token: string | null, now: Date) => Promise<T>,
  ): Promise<() => T> {
    const now = clock.now();
    // Begun in the same synchronous stretch as the token's lookup, so on SQLite the two cached reads share one look
    // at whether another process committed (store/sqlite/database.ts) rather than taking one each. Awaited by take
    // alone, which is what a failure of it fails, as before; until then it is marked handled.
    const limits = store.settings.limits();
    limits.catch(() => {});
    let found: T | null = null;
    let refusal: unknown = null;
    try {
      found = await authenticate(bearerOf(req.headers.authorization), now);
    } catch (error) {
      refusal = error;
    }
    if (found) noteCaller(res, found.caller.personId, found.oauth?.clientId ?? null);
    await take(res, found ? `calls:person:${found.caller.personId}` : `calls:address:${addressKey(req)}`, now, limits);
    return () => {
      if (found) return found;
      throw toApiError(refusal);
    };
  }

  return {
    async admit(req, res) {
      const admitted = await admitWith(req, res, async (token, now) => {
        if (isAccessToken(token)) {
          throw apiError.invalidToken(`This token was issued to an assistant for ${resource} and works only there.`);
        }
        return { caller: await callerOfToken(store, token, now, publicUrl) };
      });
      return () => admitted().caller;
    },
    async admitMcp(req, res) {
      return admitWith(req, res, async (token, now): Promise<McpCaller> => {
        if (!isAccessToken(token)) {
          const { caller, firstStep } = await tokenHolder(store, token, now, publicUrl);
          return { caller, oauth: null, firstStep };
        }
        const { caller, access, firstStep } = await callerOfAccessToken(store, token, now, resource, publicUrl);
        return { caller, oauth: access, firstStep };
      });
    },
    count(res, personId) {
      noteCaller(res, personId);
      return take(res, `calls:person:${personId}`, clock.now());
    },
    async countBatch(res, personId, requests) {
      if (requests <= 1) return;
      const limit = (await store.settings.limits()).callsPerMinute;
      const answer = await rates.takeMany(`calls:person:${personId}`, limit, requests - 1, CALL_WINDOW_MS, clock.now().getTime());
      answerWith(res, answer, `Too many calls for a batch of ${requests} requests, which costs one call each`);
    },
    countAddress(req, res) {
      return take(res, `calls:address:${addressKey(req)}`, clock.now());
    },
    addressKey,
    rates,
  };
}
