import { describe, expect, it } from 'vitest';
import {
  afterCheck,
  checkDomainName,
  hostOf,
  proofName,
  proofText,
  refuseDomain,
  type DomainStanding,
} from '../../src/domain/custom-domain.js';
import { ApiError } from '../../src/errors.js';

const T0 = new Date('2026-11-28T12:00:00.000Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

function refusal(run: () => unknown): { code: string; status: number; field: string | null; detail: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, status: error.status, field: error.field, detail: error.detail };
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('checkDomainName', () => {
  it('answers the one form domains are kept in: lowercase, punycode, no trailing dot, no spaces around', () => {
    expect(checkDomainName(' Go.Acme.COM. ')).toBe('go.acme.com');
    expect(checkDomainName('bücher.example')).toBe('xn--bcher-kva.example');
    expect(checkDomainName('go')).toBe('go');
  });

  it.each([
    ['https://go.acme.com', 'Give the domain alone, such as go.example.com, not "https://go.acme.com".'],
    ['go.acme.com/launch', 'Give the domain alone, such as go.example.com, not "go.acme.com/launch".'],
    ['go.acme.com:8443', 'Give the domain alone, such as go.example.com, not "go.acme.com:8443".'],
    ['', '"" is not a domain name.'],
    ['go..acme.com', '"go..acme.com" is not a domain name.'],
    ['192.0.2.1', '"192.0.2.1" is not a domain name.'],
    ['*.acme.com', '"*.acme.com" is not a domain name.'],
    ['go acme.com', '"go acme.com" is not a domain name.'],
    [`${'a'.repeat(64)}.example`, `"${'a'.repeat(64)}.example" is not a domain name.`],
  ])('%j is invalid_domain (400)', (input, detail) => {
    expect(refusal(() => checkDomainName(input))).toEqual({ code: 'invalid_domain', status: 400, field: 'domain', detail });
  });
});

describe('refuseDomain', () => {
  const refusals = { ownHost: 's.example.net', shorteners: new Set(['bit.ly']), blocked: new Set(['evil.example']) };

  it.each([
    ['s.example.net', "s.example.net is this service's own address."],
    ['go.s.example.net', "go.s.example.net is this service's own address."],
    ['bit.ly', 'bit.ly belongs to another link shortener.'],
    ['go.bit.ly', 'go.bit.ly belongs to another link shortener.'],
    ['evil.example', 'evil.example is blocked on this service.'],
    ['go.evil.example', 'go.evil.example is blocked on this service.'],
  ])('refuses %s (domain_refused, 400)', (domain, detail) => {
    expect(refusal(() => refuseDomain(domain, refusals))).toEqual({ code: 'domain_refused', status: 400, field: 'domain', detail });
  });

  it('lets other domains through, also ones that merely end like a refused one', () => {
    for (const domain of ['example.net', 'notbit.ly', 'go.acme.example', 'xs.example.net']) expect(() => refuseDomain(domain, refusals)).not.toThrow();
  });
});

describe('hostOf', () => {
  it.each([
    ['go.acme.com', 'go.acme.com'],
    ['Go.Acme.COM:443', 'go.acme.com'],
    ['go.acme.com.', 'go.acme.com'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:3000', null],
    [undefined, null],
    ['', null],
  ])('%j is %j', (header, host) => {
    expect(hostOf(header)).toBe(host);
  });
});

describe('the proof', () => {
  it('is a TXT record at _shortlinks.<domain> holding the token with its prefix', () => {
    expect(proofName('go.acme.com')).toBe('_shortlinks.go.acme.com');
    expect(proofText('abc')).toBe('shortlinks-verify=abc');
  });
});

describe('afterCheck', () => {
  const pending: DomainStanding = {
    state: 'pending',
    proof: 'dns',
    addedAt: iso(0),
    verifiedAt: null,
    missingSince: null,
    checkedAt: null,
    nextCheckAt: iso(0),
    problem: null,
  };
  const verified: DomainStanding = { ...pending, state: 'verified', verifiedAt: iso(MINUTE), checkedAt: iso(MINUTE), nextCheckAt: iso(MINUTE + DAY) };

  it('a pending domain found is verified, and looked at again a day later', () => {
    expect(afterCheck('go.example', pending, 'found', at(MINUTE))).toEqual(verified);
  });

  it('a pending domain missing is looked at every 5 minutes for its first day, then only when asked', () => {
    const problem = 'No TXT record _shortlinks.go.example holds the token yet.';
    expect(afterCheck('go.example', pending, 'missing', at(MINUTE))).toEqual({ ...pending, checkedAt: iso(MINUTE), nextCheckAt: iso(6 * MINUTE), problem });
    expect(afterCheck('go.example', pending, 'missing', at(DAY - MINUTE))).toMatchObject({ state: 'pending', nextCheckAt: iso(DAY + 4 * MINUTE) });
    expect(afterCheck('go.example', pending, 'missing', at(DAY))).toMatchObject({ state: 'pending', nextCheckAt: null, problem });
  });

  it('no answer changes no state and says so', () => {
    const problem = 'The last look for the TXT record _shortlinks.go.example got no answer (ETIMEOUT).';
    expect(afterCheck('go.example', pending, { unanswered: 'ETIMEOUT' }, at(MINUTE))).toEqual({ ...pending, checkedAt: iso(MINUTE), nextCheckAt: iso(6 * MINUTE), problem });
    expect(afterCheck('go.example', verified, { unanswered: 'ESERVFAIL' }, at(DAY))).toEqual({
      ...verified,
      checkedAt: iso(DAY),
      nextCheckAt: iso(2 * DAY),
      problem: 'The last look for the TXT record _shortlinks.go.example got no answer (ESERVFAIL).',
    });
  });

  it('a verified domain keeps serving while its record is missing for less than three days in a row, then fails', () => {
    const first = afterCheck('go.example', verified, 'missing', at(DAY));
    expect(first).toEqual({
      ...verified,
      missingSince: iso(DAY),
      checkedAt: iso(DAY),
      nextCheckAt: iso(2 * DAY),
      problem: 'The TXT record _shortlinks.go.example was missing at the last check; after three days in a row the domain stops serving links.',
    });
    // Asked again and again on the same day: still one day missing.
    const asked = afterCheck('go.example', first, 'missing', at(DAY + 10 * MINUTE));
    expect(asked).toMatchObject({ state: 'verified', missingSince: iso(DAY) });
    const second = afterCheck('go.example', asked, 'missing', at(2 * DAY));
    expect(second).toMatchObject({ state: 'verified', missingSince: iso(DAY) });
    const third = afterCheck('go.example', second, 'missing', at(3 * DAY));
    expect(third).toEqual({
      ...second,
      state: 'failed',
      checkedAt: iso(3 * DAY),
      nextCheckAt: iso(4 * DAY),
      problem: `The TXT record _shortlinks.go.example was missing on three days in a row; the domain stopped serving links on ${iso(3 * DAY).slice(0, 10)}.`,
    });
    // Failed, it stays so (saying why) until a check finds the record; then it is verified again from then on.
    expect(afterCheck('go.example', third, 'missing', at(4 * DAY))).toEqual({ ...third, checkedAt: iso(4 * DAY), nextCheckAt: iso(5 * DAY) });
    expect(afterCheck('go.example', third, 'found', at(4 * DAY))).toEqual({
      ...third,
      state: 'verified',
      verifiedAt: iso(4 * DAY),
      missingSince: null,
      checkedAt: iso(4 * DAY),
      nextCheckAt: iso(5 * DAY),
      problem: null,
    });
  });

  it('a record found again in between starts the count afresh', () => {
    const missing = afterCheck('go.example', verified, 'missing', at(DAY));
    const back = afterCheck('go.example', missing, 'found', at(2 * DAY));
    expect(back).toMatchObject({ state: 'verified', verifiedAt: iso(MINUTE), missingSince: null, problem: null });
    expect(afterCheck('go.example', afterCheck('go.example', back, 'missing', at(3 * DAY)), 'missing', at(4 * DAY))).toMatchObject({
      state: 'verified',
      missingSince: iso(3 * DAY),
    });
  });
});
