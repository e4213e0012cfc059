/**
 * The daily re-check through the real app: links whose destination became unsafe (on the Safe Browsing stand-in
 * or in the list file) are flagged and show the warning page; the others are left alone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFileProvider } from '../../src/destinations/unsafe/list-file.js';
import { unsafeSitesCheck } from '../../src/destinations/unsafe/provider.js';
import { startUnsafeRecheck, type UnsafeRecheck } from '../../src/destinations/unsafe/recheck.js';
import { safeBrowsingProvider } from '../../src/destinations/unsafe/safe-browsing.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { sqliteActiveDestinations } from '../../src/store/sqlite/recheck.js';
import { startSafeBrowsingStandIn, type SafeBrowsingStandIn } from '../helpers/safe-browsing.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

let standIn: SafeBrowsingStandIn;
let dir: string;
let listPath: string;
let server: TestServer;
let db: Db;
let recheck: UnsafeRecheck;
let bob: Actor;

beforeAll(async () => {
  standIn = await startSafeBrowsingStandIn();
  dir = mkdtempSync(join(tmpdir(), 'unsafe-recheck-'));
  listPath = join(dir, 'unsafe.txt');
  writeFileSync(listPath, '# operator list\nlisted.example.net\n');
  const check = unsafeSitesCheck(
    [
      safeBrowsingProvider({ apiKey: standIn.key, url: standIn.url, timeoutMs: 500 }),
      listFileProvider({ path: listPath, checkEveryMs: 0, log: () => {} }),
    ],
    { log: () => {} },
  );
  server = await startServer({ networkChecks: { unsafeSites: check } });
  // The server's own file, through a second connection: the port the app will wire is not in the store yet.
  db = openDatabase(server.dbPath);
  const links = { ...server.app.ctx.store.links, activeDestinations: sqliteActiveDestinations(db) };
  recheck = startUnsafeRecheck({ store: { links, leases: server.app.ctx.store.leases }, check, clock: server.clock, batchSize: 2, log: () => {} });
  bob = await server.person();
});
afterAll(async () => {
  await recheck.stop();
  db.close();
  await server.stop();
  await standIn.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  standIn.mode = 'ok';
});

const create = async (destination: string): Promise<string> => {
  const reply = await call(server, 'createLink', { team: bob.teamId, destination }, bob.token);
  expect(reply.status).toBe(200);
  return reply.body.code;
};
const visit = (code: string) => fetch(`${server.url}/${code}`, { redirect: 'manual' });
const state = async (code: string) => (await server.app.ctx.store.links.findByCode(code))!.state;

describe('daily re-check', () => {
  it('flags active links whose destination became unsafe, shows them with the warning page, and leaves others alone', async () => {
    const soonBad = await create('https://turned-bad.example.com/page');
    const alsoBad = await create('https://turned-bad.example.com/page#again');
    const soonListed = await create('https://soon-listed.example.org/');
    const fine = await create('https://example.com/still-fine');
    const disabled = await create('https://turned-bad.example.com/page');
    await server.app.ctx.store.links.setState(disabled, 'disabled', server.clock.now());
    expect((await visit(soonBad)).status).toBe(302);

    standIn.unsafe.add('https://turned-bad.example.com/page');
    writeFileSync(listPath, '# operator list\nlisted.example.net\nsoon-listed.example.org  # added later\n');
    // Four active links (the disabled one is not walked); two share a destination, so one look-up serves both.
    const asked = standIn.requests.length;
    expect(await recheck.runNow()).toEqual({ checked: 4, flagged: 3, skipped: 0 });
    expect(standIn.requests.slice(asked).flatMap((r) => r.urls).sort()).toEqual([
      'https://example.com/still-fine', 'https://soon-listed.example.org/', 'https://turned-bad.example.com/page',
    ]);

    expect([await state(soonBad), await state(alsoBad), await state(soonListed)]).toEqual(['flagged', 'flagged', 'flagged']);
    expect(await state(fine)).toBe('active');
    expect(await state(disabled)).toBe('disabled');
    const page = await visit(soonBad);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('under review');
    expect((await visit(fine)).status).toBe(302);

    // Flagged links are no longer active: a second run leaves them be.
    expect(await recheck.runNow()).toEqual({ checked: 1, flagged: 0, skipped: 0 });
  });

  it('skips links until next time while a list cannot be asked, still flagging what another list matched', async () => {
    const unchecked = await create('https://example.com/recheck-unchecked');
    const listed = await create('https://example.com/recheck-listed');
    writeFileSync(listPath, 'https://example.com/recheck-listed\n');
    standIn.mode = 'fail';
    // Active now: still-fine from the test before, and these two. The list file answers; Safe Browsing does not.
    expect(await recheck.runNow()).toEqual({ checked: 1, flagged: 1, skipped: 2 });
    expect(await state(listed)).toBe('flagged');
    expect(await state(unchecked)).toBe('active');

    standIn.mode = 'ok';
    standIn.unsafe.add('https://example.com/recheck-unchecked');
    expect(await recheck.runNow()).toEqual({ checked: 2, flagged: 1, skipped: 0 });
    expect(await state(unchecked)).toBe('flagged');
  });
});
