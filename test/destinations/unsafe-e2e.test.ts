/**
 * Rule 6 through the real app: createLink, createLinks and setDestination against the Safe Browsing stand-in and
 * a list file. The daily re-check through the real app is in unsafe-recheck-e2e.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFileProvider } from '../../src/destinations/unsafe/list-file.js';
import { unsafeSitesCheck, type UnsafeSitesCheck } from '../../src/destinations/unsafe/provider.js';
import { safeBrowsingProvider } from '../../src/destinations/unsafe/safe-browsing.js';
import { startSafeBrowsingStandIn, type SafeBrowsingStandIn } from '../helpers/safe-browsing.js';
import { call, expectProblem, startServer, type Actor, type TestServer } from '../helpers/server.js';

let standIn: SafeBrowsingStandIn;
let dir: string;
let listPath: string;
let check: UnsafeSitesCheck;
let server: TestServer;
let alice: Actor;

beforeAll(async () => {
  standIn = await startSafeBrowsingStandIn();
  dir = mkdtempSync(join(tmpdir(), 'unsafe-e2e-'));
  listPath = join(dir, 'unsafe.txt');
  writeFileSync(listPath, '# operator list\nlisted.example.net\n');
  const providers = [
    safeBrowsingProvider({ apiKey: standIn.key, url: standIn.url, timeoutMs: 500 }),
    listFileProvider({ path: listPath, checkEveryMs: 0, log: () => {} }),
  ];
  check = unsafeSitesCheck(providers, { log: () => {} });
  server = await startServer({ networkChecks: { unsafeSites: check } });
  alice = await server.person();
});
afterAll(async () => {
  await server.stop();
  await standIn.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  standIn.mode = 'ok';
});

const create = (destination: string, actor = alice) => call(server, 'createLink', { team: actor.teamId, destination }, actor.token);
const liveCodes = async (actor = alice) =>
  ((await call(server, 'listLinks', { team: actor.teamId, limit: 100 }, actor.token)).body.data as Array<{ code: string }>).map((l) => l.code);
const visit = (code: string) => fetch(`${server.url}/${code}`, { redirect: 'manual' });

describe('creating and changing links', () => {
  it('createLink answers 400 unsafe_destination for either list, and makes nothing', async () => {
    standIn.unsafe.add('https://phish.example.com/login');
    const before = await liveCodes();
    expectProblem(server, await create('https://phish.example.com/login#step'), 400, 'unsafe_destination', 'destination');
    expectProblem(server, await create('https://www.listed.example.net/'), 400, 'unsafe_destination', 'destination');
    expect(await liveCodes()).toEqual(before);
    expect((await create('https://example.com/safe-page')).status).toBe(200);
  });

  it('createLink answers 503 check_unavailable with Retry-After when a list cannot be asked, and makes nothing', async () => {
    const before = await liveCodes();
    for (const mode of ['fail', 'hang', 'garbage'] as const) {
      standIn.mode = mode;
      const reply = await create(`https://example.com/unchecked-${mode}`);
      expectProblem(server, reply, 503, 'check_unavailable', 'destination');
      expect(reply.headers.get('retry-after')).toBe('60');
    }
    expect(await liveCodes()).toEqual(before);
  });

  it('createLinks fails the unsafe or unchecked item alone, at its field', async () => {
    standIn.unsafe.add('https://malware.example.org/');
    const items = [
      { destination: 'https://example.com/batch-ok-1' },
      { destination: 'https://malware.example.org/' },
      { destination: 'https://listed.example.net/x' },
    ];
    const reply = await call(server, 'createLinks', { team: alice.teamId, links: items }, alice.token);
    expect(reply.status).toBe(200);
    expect(reply.body.results.map((r: any) => [r.status, r.code, r.link === null])).toEqual([
      [200, null, false],
      [400, 'unsafe_destination', true],
      [400, 'unsafe_destination', true],
    ]);

    const before = await liveCodes();
    standIn.mode = 'fail';
    const down = await call(server, 'createLinks', { team: alice.teamId, links: [{ destination: 'https://example.com/batch-unchecked' }] }, alice.token);
    expect(down.body.results).toEqual([expect.objectContaining({ link: null, status: 503, code: 'check_unavailable' })]);
    expect(await liveCodes()).toEqual(before);
  });

  it('setDestination answers 400 unsafe_destination or 503 check_unavailable, leaving the link as it was', async () => {
    const made = await create('https://example.com/before-change');
    const { code } = made.body;
    standIn.unsafe.add('https://phish.example.com/other');
    const set = (destination: string) => call(server, 'setDestination', { code, destination }, alice.token);
    expectProblem(server, await set('https://phish.example.com/other'), 400, 'unsafe_destination', 'destination');
    expectProblem(server, await set('https://sub.listed.example.net/'), 400, 'unsafe_destination', 'destination');
    standIn.mode = 'hang';
    const unchecked = await set('https://example.com/never-checked');
    expectProblem(server, unchecked, 503, 'check_unavailable', 'destination');
    expect(unchecked.headers.get('retry-after')).toBe('60');
    standIn.mode = 'ok';
    expect((await call(server, 'getLink', { code }, alice.token)).body.destination).toBe('https://example.com/before-change');
    expect((await visit(code)).headers.get('location')).toBe('https://example.com/before-change');
  });
});
