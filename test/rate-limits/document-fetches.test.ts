/**
 * Issue 20, item 6: the allowances metadata document fetches count in (src/oauth/fetch-allowances.ts), against every
 * limiter: in memory, and in SQLite and PostgreSQL with two stores taking turns, as two processes would. What one
 * process learns (a document was valid, a host failed) the other must see. The end-to-end scenarios are in
 * test/e2e/oauth-metadata-allowances.test.ts; here the allowances that take hundreds of fetches to use up.
 */
import { describe, expect, it } from 'vitest';
import { fetchAllowances, type PlannedFetch } from '../../src/oauth/fetch-allowances.js';
import { eachTestWith, LIMITERS } from './limiters.js';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const MINUTE_MS = 60_000;
const plan = (clientId: string, from = '192.0.2.1', approved = false): PlannedFetch => ({ clientId, host: new URL(clientId).hostname, from, approved });

describe.each(LIMITERS)('metadata document fetch allowances, %s', (_name, make) => {
  const limiter = eachTestWith(make);

  it('a known or approved client fetches from its own allowance while the new clients\' 600 are used up', async () => {
    const allowances = fetchAllowances(limiter());
    const known = 'https://known.example/client.json';
    expect(await allowances.take(plan(known), NOW)).toBeNull();
    await allowances.served(known, 'known.example', NOW);
    const later = NOW + 6 * MINUTE_MS;
    // What 600 new clients a minute (from 30 networks and 60 hosts) leave behind.
    expect((await limiter().takeMany('documents:new', 600, 600, MINUTE_MS, later)).allowed).toBe(true);

    expect(await allowances.take(plan('https://another.example/client.json'), later)).toEqual({ allowed: false, limit: 600, remaining: 0, resetSeconds: 60 });
    expect(await allowances.take(plan(known), later)).toBeNull();
    expect(await allowances.take(plan('https://approved.example/client.json', '192.0.2.2', true), later)).toBeNull();
    // Known for an hour after its document was valid; then a new client again.
    const expired = NOW + 61 * MINUTE_MS;
    expect((await limiter().takeMany('documents:new', 600, 600, MINUTE_MS, expired)).allowed).toBe(true);
    expect((await allowances.take(plan(known), expired))?.allowed).toBe(false);
  });

  it('a failing host fetches from the smaller allowance, which new hosts never touch; a host that served is never failing', async () => {
    const allowances = fetchAllowances(limiter());
    await allowances.failed('junk.example', NOW);
    await allowances.failed('served.example', NOW);
    await allowances.served('https://served.example/client.json', 'served.example', NOW);
    const later = NOW + 2 * MINUTE_MS;
    expect((await limiter().takeMany('documents:failing', 60, 60, MINUTE_MS, later)).allowed).toBe(true);

    expect(await allowances.take(plan('https://junk.example/1'), later)).toEqual({ allowed: false, limit: 60, remaining: 0, resetSeconds: 60 });
    expect(await allowances.take(plan('https://new.example/client.json'), later)).toBeNull();
    expect(await allowances.take(plan('https://served.example/other.json'), later)).toBeNull();
    // Failing for 10 minutes after the failure that made it so.
    expect(await allowances.take(plan('https://junk.example/2'), NOW + 10 * MINUTE_MS + 1)).toBeNull();
  });

  it('a network\'s refusal is answered first, and costs the other allowances nothing', async () => {
    const allowances = fetchAllowances(limiter());
    for (let i = 0; i < 20; i++) expect(await allowances.take(plan(`https://host${i}.example/c`, '2001:db8:5:5::1'), NOW)).toBeNull();
    expect(await allowances.take(plan('https://host99.example/c', '2001:db8:5:ff00::1'), NOW)).toEqual({ allowed: false, limit: 20, remaining: 0, resetSeconds: 60 });
    expect((await limiter().peek('documents:new', 600, MINUTE_MS, NOW)).remaining).toBe(580);
    expect(await allowances.take(plan('https://host99.example/c', '2001:db8:6::1'), NOW)).toBeNull();
  });
});
