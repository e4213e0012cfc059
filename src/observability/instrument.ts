import { ApiError } from '../errors.js';
import type { RateLimiter } from '../support/rate-limiter.js';

/** Told when a timed call ends: its seconds, what it threw (undefined when it did not), and what it returned. */
export type CallTimer = (seconds: number, error: unknown, value?: unknown) => void;

/**
 * The store with every method of every part (`links.findByCode`, `rates.take` ...) timed, for the database time
 * metric; `leaveOut` names parts left as they are (`changes`, whose catch-up every redirect awaits). Each wrapper
 * gets its timer once, when it is made, so a call costs two clock readings and the promise the timing waits on.
 * The wrapped parts inherit from the originals, and call them on the originals, so nothing else changes.
 */
export function timedStore<S extends object>(store: S, timerOf: (call: string) => CallTimer, leaveOut: readonly string[]): S {
  const timed = Object.create(store) as Record<string, unknown>;
  for (const [name, part] of Object.entries(store)) {
    if (leaveOut.includes(name) || typeof part !== 'object' || part === null) continue;
    timed[name] = timedPart(part as object, name, timerOf);
  }
  return timed as S;
}

function timedPart(part: object, partName: string, timerOf: (call: string) => CallTimer): object {
  const timed = Object.create(part) as Record<string, unknown>;
  for (const name of methodNames(part)) {
    const method = (part as Record<string, (...args: unknown[]) => unknown>)[name]!;
    const done = timerOf(`${partName}.${name}`);
    timed[name] = (...args: unknown[]) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      let result: unknown;
      try {
        result = method.apply(part, args);
      } catch (error) {
        done(seconds(), error);
        throw error;
      }
      if (!(result instanceof Promise)) {
        done(seconds(), undefined, result);
        return result;
      }
      return result.then(
        (value) => (done(seconds(), undefined, value), value),
        (error: unknown) => {
          done(seconds(), error);
          throw error;
        },
      );
    };
  }
  return timed;
}

/** The methods of an object and of its prototypes (a class's), Object's own left out. */
function methodNames(object: object): string[] {
  const names = new Set<string>();
  for (let level = object; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level) as object) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(level, name)?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/** The limits the rate limiter counts, by the prefix of their keys (each caller prefixes its own). */
const KINDS: Record<string, string> = {
  calls: 'calls_per_minute',
  signups: 'signups',
  teams: 'new_teams',
  registrations: 'client_registrations',
  documents: 'metadata_fetches',
};

/** The rate limiter, telling `refused` the kind of every refusal (calls per minute, sign-ups, ...). */
export function countedRefusals(rates: RateLimiter, refused: (kind: string) => void): RateLimiter {
  const kindOf = (key: string) => KINDS[key.slice(0, key.indexOf(':'))] ?? 'other';
  return {
    peek: (key, limit, windowMs, nowMs) => rates.peek(key, limit, windowMs, nowMs),
    attemptSucceeded: (cleared, others) => rates.attemptSucceeded(cleared, others),
    async take(key, limit, windowMs, nowMs) {
      const answer = await rates.take(key, limit, windowMs, nowMs);
      if (!answer.allowed) refused(kindOf(key));
      return answer;
    },
    async takeMany(key, limit, calls, windowMs, nowMs) {
      const answer = await rates.takeMany(key, limit, calls, windowMs, nowMs);
      if (!answer.allowed) refused(kindOf(key));
      return answer;
    },
    async takeAll(keys, windowMs, nowMs) {
      const answers = await rates.takeAll(keys, windowMs, nowMs);
      const at = answers.findIndex((answer) => !answer.allowed);
      if (at >= 0) refused(kindOf(keys[at]![0]));
      return answers;
    },
    async startAttempt(keys, rule, nowMs) {
      const waitMs = await rates.startAttempt(keys, rule, nowMs);
      if (waitMs > 0) refused('signin_slowdown');
      return waitMs;
    },
  };
}

interface Checker<T> {
  check(destination: string, field: string): Promise<T>;
}

/** A destination checker telling `outcome` how each check ended: `passed`, or the refusal's error code. */
export function countedChecks<T>(checker: Checker<T>, outcome: (name: string) => void): Checker<T> {
  return {
    async check(destination, field) {
      try {
        const checked = await checker.check(destination, field);
        outcome('passed');
        return checked;
      } catch (error) {
        outcome(error instanceof ApiError ? error.code : 'failed');
        throw error;
      }
    },
  };
}
