import { describe, expect, it } from 'vitest';
import { blockDomain, listBlocked, unblockDomain } from '../../src/operator/blocklist.js';
import { LIMIT_FLAGS } from '../../src/operator/limit-flags.js';
import { LimitFaults, setLimits, showLimits } from '../../src/operator/limits.js';
import { T0 } from '../store/contract/fixtures.js';
import { operatorStore, refusal } from './store.js';

describe('operator: the blocklist and the limits', () => {
  const db = operatorStore();

  it('blocks a domain as every check compares it, once, and refuses what is not a domain name', async () => {
    expect(await blockDomain(db.store, ' Example.COM. ', T0)).toEqual({ domain: 'example.com', blocked: true, changed: true });
    expect(await blockDomain(db.store, 'example.com', T0)).toEqual({ domain: 'example.com', blocked: true, changed: false });
    expect(await listBlocked(db.store)).toEqual({ blocked: ['example.com'] });
    expect(await unblockDomain(db.store, 'example.com')).toEqual({ domain: 'example.com', blocked: false, changed: true });
    expect(await refusal(blockDomain(db.store, 'https://evil.com/x', T0))).toEqual({
      status: 400,
      code: 'bad_request',
      message: 'not a domain name: "https://evil.com/x"',
      field: 'domain',
    });
  });

  it('refuses every bad limit at once, naming the first, and stores none of them', async () => {
    const before = await showLimits(db.store);
    const refused = setLimits(db.store, { 'per-day': '50', 'teams-per-hour': 'x', 'per-hour': '0', 'established-after-hours': '0' });
    await expect(refused).rejects.toBeInstanceOf(LimitFaults);
    const faults = await refused.catch((error: LimitFaults) => error);
    expect(faults).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: '--per-hour must be a whole number from 1 to 1000000000: "0"',
      field: 'per-hour',
      faults: { 'per-hour': 'must be a whole number from 1 to 1000000000', 'teams-per-hour': 'must be a whole number from 1 to 1000000000' },
    });
    expect(Object.keys((faults as LimitFaults).faults).sort()).toEqual(['per-hour', 'teams-per-hour']);
    expect(await showLimits(db.store)).toEqual(before);
  });

  it('keeps click analytics at least 30 days: --analytics-days 29 is refused beside its field, 30 is kept', async () => {
    const before = await showLimits(db.store);
    expect(before.analyticsDays).toBe(400);
    const refused = await setLimits(db.store, { 'analytics-days': '29' }).catch((error: LimitFaults) => error);
    expect(refused).toBeInstanceOf(LimitFaults);
    expect(refused).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: '--analytics-days must be a whole number from 30 to 1000000000: "29"',
      field: 'analytics-days',
      faults: { 'analytics-days': 'must be a whole number from 30 to 1000000000' },
    });
    expect(await showLimits(db.store)).toEqual(before);
    expect(await setLimits(db.store, { 'analytics-days': '30' })).toEqual({ ...before, analyticsDays: 30 });
    expect(await setLimits(db.store, { 'analytics-days': '400' })).toEqual(before);
  });

  it('sets only the limits given, and refuses none given', async () => {
    const before = await showLimits(db.store);
    expect(await setLimits(db.store, { 'per-day': ' 50 ', 'established-after-hours': '0' })).toEqual({ ...before, perDay: 50, establishedAfterHours: 0 });
    expect(await refusal(setLimits(db.store, {}))).toEqual({
      status: 400,
      code: 'bad_request',
      message: `limits set needs --preset or at least one of ${Object.keys(LIMIT_FLAGS).map((flag) => `--${flag}`).join(', ')}`,
      field: null,
    });
  });

  it('--preset private lifts every creation and change limit, keeps the others, and lets a flag given with it win', async () => {
    const before = await setLimits(db.store, { 'calls-per-minute': '120', 'team-links': '30' });
    const lifted = { maxLinksPerTeam: 1_000_000_000, perHour: 1_000_000_000, perDay: 1_000_000_000, firstWeekPerDay: 1_000_000_000, changesPerHour: 1_000_000_000 };
    expect(await setLimits(db.store, {}, 'private')).toEqual({ ...before, ...lifted, callsPerMinute: 120 });
    expect(await setLimits(db.store, { 'per-day': '500' }, ' private ')).toEqual({ ...before, ...lifted, perDay: 500 });
    expect(await refusal(setLimits(db.store, { 'per-hour': '5' }, 'public'))).toEqual({
      status: 400,
      code: 'bad_request',
      message: '--preset must be one of private: "public"',
      field: 'preset',
    });
    expect((await showLimits(db.store)).perHour).toBe(1_000_000_000);
  });
});
