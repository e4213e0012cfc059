import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type LogLine, type ServerProcess } from '../helpers/server-process.js';
import { WebVisitor } from '../helpers/web-forms.js';

/**
 * The disk holding the SQLite file fills up under the running server (`npm start`'s entry, its own process): a
 * real full file system, a tmpfs of its own (mounting one needs root, as the tests run in CI), filled by a file
 * and freed by deleting it. Every write answers 503 service_unavailable with Retry-After, reads and redirects still
 * answer, /healthz says 503 with the reason, the log tells the condition once rather than a stack per request;
 * freed, all works again. SQLite only (vitest.config.ts): PostgreSQL's full disk is classified in
 * test/store/failures.test.ts.
 */
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const CANNOT_STORE = 'The service cannot store anything right now; retry in a minute.';
const CONDITION = /^The database cannot store writes \(SQLITE_FULL: database or disk is full\)/;

let dir: string;
let filler: string;
let served: Awaited<ReturnType<typeof start>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-disk-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir]);
  filler = join(dir, 'filler');
  served = await start(join(dir, 'full.db'));
});
afterEach(() => rmSync(filler, { force: true }));
afterAll(async () => {
  try {
    // The last test stops it itself.
    if (served?.server.exitCode() === null) await served.server.stop();
  } finally {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Takes every byte the file system has left. */
function fillDisk(): void {
  const { bavail, bsize } = statfsSync(dir);
  try {
    writeFileSync(filler, Buffer.alloc(bavail * bsize));
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  }
  expect(statfsSync(dir).bavail).toBe(0);
}

/**
 * The server on a new database file on the small file system, and a person who signed up in its web app with a
 * team and a token (no CLI processes: this machine may be slow, and the test is about what comes after).
 */
async function start(dbPath: string) {
  const server = await startServerProcess({ dbPath });
  const visitor = new WebVisitor(`http://127.0.0.1:${server.port}`);
  expect((await visitor.signUp('person@example.com')).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  const team = /^\/teams\/(team_[A-Za-z0-9]+)/.exec((await visitor.makeTeam('Team')).location!)![1]!;
  const made = await visitor.submit('/developers', '/developers/tokens', { team });
  const token = /id="new-token"[^>]*value="(sl_[A-Za-z0-9_]+)"/.exec((await visitor.request('GET', made.location!)).body)![1]!;
  const api = async (op: string, body: unknown): Promise<Answer> => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/${op}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  return { server, api, team, visitor };
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

function expectCannotStore(server: ServerProcess, answer: Answer, detail = CANNOT_STORE): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  expect(answer.body).toEqual({
    type: `http://127.0.0.1:${server.port}/docs/errors#service_unavailable`,
    title: 'Service unavailable',
    status: 503,
    code: 'service_unavailable',
    detail,
    field: null,
  });
}

async function get(server: ServerProcess, path: string): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

const lines = (server: ServerProcess, msg: RegExp): LogLine[] => server.log().filter((line) => msg.test(line.msg));

describe('a full disk under the SQLite file', () => {
  it('answers every write 503 with Retry-After, serves reads and redirects, says so at /healthz and logs it once; freed, all works again', async () => {
    const { server, api, team, visitor } = served;
    const made = await api('createLink', { team, destination: 'https://example.com/kept' });
    expect(made.status).toBe(200);
    const { code } = made.body;

    fillDisk();
    const before = server.log().length;
    for (let i = 0; i < 20; i++) {
      const refused = await api('createLink', { team, destination: `https://example.com/${i}` });
      expectCannotStore(server, refused);
      expect(refused.headers.get('retry-after')).toBe('60');
    }
    const note = await api('setNote', { code, note: 'on a full disk' });
    expectCannotStore(server, note);
    expect(note.headers.get('retry-after')).toBe('60');

    // A form of the web app: its error page, 503 with the same wait, not a 500.
    const page = await visitor.submit('/teams', '/teams', { name: 'Full' });
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('60');
    expect(page.body).toContain('<h1>Not available right now</h1>');
    expect(page.body).toContain(CANNOT_STORE);

    // Reads and redirects answer (the click is counted in memory, its write waits for room).
    const listed = await api('listLinks', { team });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((link: { code: string }) => link.code)).toEqual([code]);
    const visit = await get(server, `/${code}`);
    expect([visit.status, visit.headers.get('location')]).toEqual([302, 'https://example.com/kept']);

    const health = await get(server, '/healthz');
    expectCannotStore(
      server,
      health,
      'The service cannot store anything: its database reports its disk full or failing. Reads and redirects still answer.',
    );

    // Past the time a process counting its budgets alone renews its row before it counts (3 s, counted-alone.ts):
    // the failed renewals cost the calls nothing.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const later = await api('listLinks', { team });
    expect([later.status, later.body.data.length]).toEqual([200, 1]);

    // One line for the condition, none per request, no stack.
    await expect.poll(() => lines(server, /^health: the database cannot serve/).length).toBe(1);
    const during = server.log().slice(before);
    expect(during.filter((line) => CONDITION.test(line.msg))).toEqual([
      expect.objectContaining({ level: 'error', reason: 'SQLITE_FULL: database or disk is full' }),
    ]);
    expect(during.filter((line) => 'err' in line || line.msg.includes('Unexpected'))).toEqual([]);
    expect(lines(server, /^health: the database cannot serve \(SQLITE_FULL: database or disk is full\); \/healthz answers 503$/)).toHaveLength(1);

    rmSync(filler);
    const healthy = await get(server, '/healthz');
    expect([healthy.status, healthy.body]).toEqual([200, { status: 'ok' }]);
    const again = await api('createLink', { team, destination: 'https://example.com/again' });
    expect(again.status).toBe(200);
    // The log comes through the process's stdout, which may arrive after the answer that followed it.
    const restoredLine = /^The database stores writes again; \d+ failed meanwhile$/;
    await expect.poll(() => lines(server, restoredLine).length).toBe(1);
    const restored = lines(server, restoredLine);
    // The 20 creations, the note, the form, and the click counts' writes tried every second meanwhile.
    expect(restored[0]!.failed).toBeGreaterThanOrEqual(22);
    await expect.poll(async () => (await api('linkClicks', { code })).body.last7).toBe(1);
  });

  it('names, when stopped, the click counts it could not write', async () => {
    const { server, api, team } = served;
    const { code } = (await api('createLink', { team, destination: 'https://example.com/' })).body;

    fillDisk();
    for (let i = 0; i < 3; i++) expect((await get(server, `/${code}`)).status).toBe(302);
    await server.stop();

    expect(server.exitCode()).toBe(0);
    const lost = lines(server, /^closing: .* could not be written/);
    expect(lost).toEqual([
      expect.objectContaining({
        level: 'error',
        clicks: 3,
        links: 1,
        msg: 'closing: 3 clicks counted on 1 link could not be written (SQLITE_FULL: database or disk is full); they are lost',
      }),
    ]);
  });
});
