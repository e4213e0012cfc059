import { describe, expect, it } from 'vitest';
import { apiError } from '../../src/errors.js';
import { countedChecks, countedRefusals, timedStore } from '../../src/observability/instrument.js';
import { ServiceMetrics } from '../../src/observability/metrics.js';
import { memoryRateLimiter } from '../../src/support/memory-rate-limiter.js';

describe('what the metrics wrap', () => {
  it('tells each refusal of the rate limiter by the kind its key names', async () => {
    const kinds: string[] = [];
    const rates = countedRefusals(memoryRateLimiter(), (kind) => kinds.push(kind));
    for (const key of ['calls:person:p1', 'signups:10.0.0.0', 'registrations:10.0.0.1', 'made-up:1']) {
      expect((await rates.take(key, 1, 60_000, 0)).allowed).toBe(true);
      expect((await rates.take(key, 1, 60_000, 1)).allowed).toBe(false);
    }
    const teams = [['teams:address:a', 5], ['teams:person:p', 1]] as const;
    await rates.takeAll(teams, 60_000, 0);
    await rates.takeAll(teams, 60_000, 1);
    const documents = [['documents:address:a', 1], ['documents:all', 10]] as const;
    await rates.takeAll(documents, 60_000, 0);
    await rates.takeAll(documents, 60_000, 1);
    expect((await rates.takeMany('calls:person:p2', 2, 2, 60_000, 0)).allowed).toBe(true);
    expect((await rates.takeMany('calls:person:p2', 2, 2, 60_000, 1)).allowed).toBe(false);
    const rule = { freeFailures: 0, firstWaitMs: 1000, maxWaitMs: 8000, quietMs: 60_000 };
    expect(await rates.startAttempt(['email:a@example.com'], rule, 0)).toBe(0);
    expect(await rates.startAttempt(['email:a@example.com'], rule, 1)).toBeGreaterThan(0);
    expect(kinds).toEqual(['calls_per_minute', 'signups', 'client_registrations', 'other', 'new_teams', 'metadata_fetches', 'calls_per_minute', 'signin_slowdown']);
  });

  it('times every method of every part of the store, and passes answers and errors through', async () => {
    const store = {
      links: {
        find: async (code: string) => ({ code }),
        create: async () => {
          throw apiError.teamFull('full');
        },
      },
      count: () => 3,
      changes: { catchUp: async () => undefined },
    };
    const calls: Array<[string, unknown]> = [];
    const timed = timedStore(store, (call) => (seconds, error) => calls.push([call, error === undefined ? seconds >= 0 : (error as Error).message]), ['changes']);
    expect(await timed.links.find('AbCdEf1')).toEqual({ code: 'AbCdEf1' });
    await expect(timed.links.create()).rejects.toThrow('full');
    expect(timed.changes).toBe(store.changes);
    expect(timed.count()).toBe(3);
    expect(calls).toEqual([['links.find', true], ['links.create', 'full']]);
  });

  it('counts the limit refusals createMany answers as its items\' outcomes, as those create and the changes throw', async () => {
    const metrics = new ServiceMetrics();
    const store = {
      links: {
        createMany: async () => [{ code: 'AbCdEf1' }, apiError.teamFull('full'), apiError.limitReached('hour'), apiError.nameTaken('taken', 'links[3].name')],
        create: async () => {
          throw apiError.limitReached('hour');
        },
        rename: async () => {
          throw apiError.limitReached('changes');
        },
      },
    };
    const timed = timedStore(store, (call) => metrics.storeCall(call), []);
    await timed.links.createMany();
    await expect(timed.links.create()).rejects.toThrow('hour');
    await expect(timed.links.rename()).rejects.toThrow('changes');
    const refusals = (kind: string) => metrics.refusals.of(kind).value;
    expect([refusals('team_full'), refusals('link_creations'), refusals('link_changes')]).toEqual([1, 2, 1]);
  });

  it('tells how each destination check ended: passed, or the refusal code', async () => {
    const outcomes: string[] = [];
    const checker = countedChecks(
      {
        check: async (destination: string) => {
          if (destination.includes('10.0.0.1')) throw apiError.privateDestination('private', 'destination');
          if (destination.includes('broken')) throw new Error('resolver gone');
          return destination;
        },
      },
      (outcome) => outcomes.push(outcome),
    );
    await checker.check('https://example.com/', 'destination');
    await expect(checker.check('https://10.0.0.1/', 'destination')).rejects.toThrow('private');
    await expect(checker.check('https://broken.example/', 'destination')).rejects.toThrow('resolver gone');
    expect(outcomes).toEqual(['passed', 'private_destination', 'failed']);
  });
});
