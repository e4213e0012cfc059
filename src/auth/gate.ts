import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail, toApiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import type { Caller, Clock } from '../tools/define-tool.js';
import { rateLimitHeaders, type CallBudget } from './call-budget.js';
import { bearerOf, callerOfToken } from './personal-token.js';

/**
 * The door every API and MCP request passes: it finds who is calling, takes one call from their budget (the
 * person's, or the client address's when the token does not check out) and sets the RateLimit headers.
 * It answers `rate_limited` itself; an authentication failure is handed back as a thunk so the surface can first
 * answer what does not need a caller (an unknown operation, a retired version).
 */
export interface Gate {
  admit(req: IncomingMessage, res: ServerResponse): Promise<() => Caller>;
  /** Takes one call from a signed-in person's budget (the web app shares it), setting the same headers. */
  count(res: ServerResponse, personId: string): void;
}

export function createGate(deps: { store: Store; budget: CallBudget; clock: Clock; publicUrl: string }): Gate {
  const { store, budget, clock, publicUrl } = deps;

  /** Takes one call from `key`'s budget; sets the RateLimit headers; throws 429 `rate_limited` past it. */
  function take(res: ServerResponse, key: string, now: Date): void {
    const answer = budget.take(key, store.settings.limits().callsPerMinute, now.getTime());
    for (const [name, value] of Object.entries(rateLimitHeaders(answer))) res.setHeader(name, value);
    if (!answer.allowed) {
      const limited = fail('rate_limited', `Too many calls; wait ${answer.resetSeconds} seconds.`);
      limited.retryAfter = answer.resetSeconds;
      throw limited;
    }
  }

  return {
    async admit(req, res) {
      const now = clock.now();
      let caller: Caller | null = null;
      let refusal: unknown = null;
      try {
        caller = await callerOfToken(store, bearerOf(req.headers.authorization), now, publicUrl);
      } catch (error) {
        refusal = error;
      }
      take(res, caller ? `person:${caller.personId}` : `address:${req.socket.remoteAddress ?? 'unknown'}`, now);
      return () => {
        if (caller) return caller;
        throw toApiError(refusal);
      };
    },
    count(res, personId) {
      take(res, `person:${personId}`, clock.now());
    },
  };
}
