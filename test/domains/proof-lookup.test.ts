import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofLookup, type LookForProof } from '../../src/domains/proof-lookup.js';
import { startDnsServer, type DnsServer, type Entry } from '../helpers/dns-server.js';

/** The TXT lookups that prove teams' domains, against a real DNS server on loopback. */
describe('proofLookup', () => {
  const names: Record<string, Entry> = {
    '_shortlinks.go.acme.example': { txt: ['some-other=record', 'shortlinks-verify=abc'] },
    '_shortlinks.spaced.example': { txt: ['  shortlinks-verify=abc '] },
    '_shortlinks.other-token.example': { txt: ['shortlinks-verify=xyz'] },
    '_shortlinks.no-txt.example': { a: ['93.184.216.34'] },
    '_shortlinks.broken.example': 'servfail',
    '_shortlinks.silent.example': 'silent',
  };
  let dns: DnsServer;
  let look: LookForProof;
  beforeAll(async () => {
    dns = await startDnsServer(names);
    look = proofLookup({ servers: dns.servers, timeoutMs: 500 });
  });
  afterAll(() => dns.close());

  it('finds the token among the TXT records at _shortlinks.<domain>, spaces around it ignored', async () => {
    expect(await look('go.acme.example', 'abc')).toBe('found');
    expect(await look('spaced.example', 'abc')).toBe('found');
    expect(dns.queries).toContain('_shortlinks.go.acme.example TXT');
  });

  it('is missing for another token, no TXT record, or no such name', async () => {
    expect(await look('go.acme.example', 'abd')).toBe('missing');
    expect(await look('other-token.example', 'abc')).toBe('missing');
    expect(await look('no-txt.example', 'abc')).toBe('missing');
    expect(await look('nowhere.example', 'abc')).toBe('missing');
  });

  it('says a server that failed or never answered gave no answer, within the timeout', async () => {
    expect(await look('broken.example', 'abc')).toEqual({ unanswered: 'ESERVFAIL' });
    const started = Date.now();
    expect(await look('silent.example', 'abc')).toEqual({ unanswered: 'ETIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('sees a record published, and one taken away, at the next lookup', async () => {
    expect(await look('later.example', 'abc')).toBe('missing');
    names['_shortlinks.later.example'] = { txt: ['shortlinks-verify=abc'] };
    expect(await look('later.example', 'abc')).toBe('found');
    delete names['_shortlinks.later.example'];
    expect(await look('later.example', 'abc')).toBe('missing');
  });
});
