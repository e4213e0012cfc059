import type { Response } from 'express';
import { verifyPassword } from '../support/password.js';
import type { SignedIn } from '../auth/web-sessions.js';
import { MAX_PASSWORD } from '../domain/account-rules.js';
import { setRetryAfter } from '../http/retry-after.js';
import { SignInThrottle } from './sign-in-throttle.js';
import type { PageDeps } from './request.js';

/**
 * The signed-in person's current password, asked again before a change to the account (password, email, deletion).
 * Checking it is slowed down after failures as signing in is (sign-in-throttle.ts), under a key of the person's own:
 * someone holding a stolen session cannot guess it quickly, and strangers guessing at the sign-in page do not slow
 * the person down here.
 */
export function currentPassword(deps: PageDeps) {
  const { ctx, gate } = deps;
  const throttle = new SignInThrottle(gate.rates);
  return {
    /** The person's password hash; null for someone who signs in without one (single sign-on, a link not yet used). */
    async hashOf(me: SignedIn): Promise<string | null> {
      return (await ctx.store.people.withPasswordHash(me.person.email))?.passwordHash ?? null;
    },

    /** Whether `password` is the person's, throttled: 'ok', 'wrong', or the seconds to wait (Retry-After set). */
    async check(res: Response, me: SignedIn, hash: string, password: string): Promise<'ok' | 'wrong' | number> {
      const key = `account:${me.person.id}`;
      const wait = await throttle.begin([key], ctx.clock.now().getTime());
      if (wait > 0) {
        setRetryAfter(res, wait);
        return wait;
      }
      if (!(await verifyPassword(password.slice(0, MAX_PASSWORD), hash))) return 'wrong';
      await throttle.succeeded(key, []);
      return 'ok';
    },
  };
}
