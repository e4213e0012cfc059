import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, UPSTREAM_HEADER, type Balancer } from '../helpers/balancer.js';
import { runCli } from '../helpers/cli.js';
import { testDatabase } from '../helpers/database-env.js';
import { freePort } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Two real server processes (`npm start`'s entry, WORKERS=1 each, their own ports) on one SQLite file, behind a
 * real round-robin balancer: each request goes to the other server than the one before. A change answered by one
 * shows on the very next request, which the other answers; limits hold across both; clicks add up; and a server
 * killed with SIGKILL loses nothing it answered.
 */
let dir: string;
let dbPath: string;
/** Where the servers keep their data: the file, or a PostgreSQL database in the postgres project. */
let database: Record<string, string>;
let balancer: Balancer;
const servers: ServerProcess[] = [];
let token: string;
let email: string;

const BROWSER = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36' };

async function cli(...args: string[]) {
  const run = await runCli(dbPath, ...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

interface Answer {
  status: number;
  body: any;
  location: string | null;
  /** The index of the server that answered. */
  upstream: number;
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  return { status: res.status, body: json, location: res.headers.get('location'), upstream: Number(res.headers.get(UPSTREAM_HEADER)) };
}

/** An API call through the balancer. */
async function api(op: string, body: unknown): Promise<Answer> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return answerOf(await fetch(`${balancer.url}/v1/${op}`, { method: 'POST', headers, body: JSON.stringify(body) }));
}

/** A visit to a short link through the balancer, from a browser. */
async function visit(path: string): Promise<Answer> {
  return answerOf(await fetch(`${balancer.url}${path}`, { headers: BROWSER, redirect: 'manual' }));
}

/** The same request twice in a row: the balancer sends one to each server. */
async function onBoth(send: () => Promise<Answer>): Promise<[Answer, Answer]> {
  const both: [Answer, Answer] = [await send(), await send()];
  expect(both.map((answer) => answer.upstream).sort()).toEqual([0, 1]);
  return both;
}

/** A change through the balancer, and what the very next request (so the other server) and the one after see. */
async function changeThenBoth(change: () => Promise<Answer>, look: () => Promise<Answer>): Promise<[Answer, Answer]> {
  const changed = await change();
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  const [next, after] = await onBoth(look);
  expect(next.upstream).not.toBe(changed.upstream);
  return [next, after];
}

async function newTeam(name: string): Promise<string> {
  return (await cli('team', 'add', '--name', name, '--owner', email)).id;
}

let names = 0;
const freshName = (prefix: string) => `${prefix}-${process.pid}-${++names}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-balanced-'));
  dbPath = join(dir, 'shared.db');
  // In the postgres project, both servers and the CLI share a PostgreSQL database instead of the file.
  database = await testDatabase(dbPath);
  email = (await cli('person', 'add', '--email', 'balanced@example.com', '--agree-terms')).email;
  const team = await newTeam('First');
  token = (await cli('token', 'create', '--email', email, '--team', team)).token;
  await cli('limits', 'set', '--per-hour', '10000', '--per-day', '10000', '--first-week-per-day', '10000', '--changes-per-hour', '10000');
  const port = await freePort();
  const env = { PUBLIC_URL: `http://127.0.0.1:${port}`, ...database };
  servers.push(...(await Promise.all([0, 1].map(() => startServerProcess({ dbPath, env })))));
  balancer = await startBalancer(port, servers.map((server) => server.port));
});
afterAll(async () => {
  await balancer?.close();
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function link(team: string, fields: { name?: string; destination?: string } = {}) {
  const made = await api('createLink', { team, destination: 'https://example.com/first', ...fields });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body as { code: string; name: string | null; id: string };
}

// Each test runs the CLI as processes of its own: 6 s here, so 60 s leaves room on a loaded CI runner.
describe('two server processes behind a round-robin balancer', { timeout: 60_000 }, () => {
  it('names no worker in its answers when it runs as one process (WORKERS=1)', async () => {
    const res = await fetch(`http://127.0.0.1:${servers[0]!.port}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-served-by')).toBeNull();
  });

  it('a rename on one server shows on the other at once: the new name leads there, the old one no longer', async () => {
    const team = await newTeam('Rename');
    const [before, after] = [freshName('before'), freshName('after')];
    const made = await link(team, { name: before });
    // Both servers have the old name and the (so far unknown) new name in their caches.
    for (const answer of await onBoth(() => visit(`/${before}`))) expect(answer.status).toBe(302);
    for (const answer of await onBoth(() => visit(`/${after}`))) expect(answer.status).toBe(404);
    const seen = await changeThenBoth(() => api('renameLink', { code: made.code, name: after }), () => visit(`/${after}`));
    for (const answer of seen) expect([answer.status, answer.location]).toEqual([302, 'https://example.com/first']);
    for (const answer of await onBoth(() => visit(`/${before}`))) expect(answer.status).toBe(404);
  });

  it('a delete on one server shows on the other at once', async () => {
    const made = await link(await newTeam('Delete'));
    for (const answer of await onBoth(() => visit(`/${made.code}`))) expect(answer.status).toBe(302);
    const seen = await changeThenBoth(() => api('deleteLink', { code: made.code }), () => visit(`/${made.code}`));
    for (const answer of seen) expect(answer.status).toBe(404);
  });

  it('a new destination on one server is where the other sends visitors, and what its API reads', async () => {
    const made = await link(await newTeam('Destination'));
    for (const answer of await onBoth(() => visit(`/${made.code}`))) expect(answer.location).toBe('https://example.com/first');
    for (const answer of await onBoth(() => api('getLink', { code: made.code }))) expect(answer.body.destination).toBe('https://example.com/first');
    const change = () => api('setDestination', { code: made.code, destination: 'https://example.com/second' });
    for (const answer of await changeThenBoth(change, () => visit(`/${made.code}`))) expect(answer.location).toBe('https://example.com/second');
    const third = () => api('setDestination', { code: made.code, destination: 'https://example.com/third' });
    for (const answer of await changeThenBoth(third, () => api('getLink', { code: made.code }))) {
      expect(answer.body.destination).toBe('https://example.com/third');
    }
  });

  it("the operator's flag, disable and restore (the CLI, a third process) show on both servers at once", async () => {
    const made = await link(await newTeam('States'));
    for (const answer of await onBoth(() => visit(`/${made.code}`))) expect(answer.status).toBe(302);
    await cli('link', 'flag', made.code);
    for (const answer of await onBoth(() => visit(`/${made.code}`))) {
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('https://example.com/first');
    }
    await cli('link', 'disable', made.code);
    for (const answer of await onBoth(() => visit(`/${made.code}`))) expect(answer.status).toBe(410);
    for (const answer of await onBoth(() => api('setDestination', { code: made.code, destination: 'https://example.com/x' }))) {
      expect([answer.status, answer.body.code]).toEqual([409, 'link_disabled']);
    }
    await cli('link', 'restore', made.code);
    for (const answer of await onBoth(() => visit(`/${made.code}`))) expect(answer.status).toBe(302);
  });

  it('limits set and the blocklist (the CLI) hold on both servers from their next request', async () => {
    const team = await newTeam('Limits');
    for (const answer of await onBoth(() => api('createLink', { team, destination: 'https://example.com/ok' }))) expect(answer.status).toBe(200);
    await cli('limits', 'set', '--team-links', '2');
    try {
      for (const answer of await onBoth(() => api('createLink', { team, destination: 'https://example.com/ok' }))) {
        expect([answer.status, answer.body.code]).toEqual([409, 'team_full']);
      }
    } finally {
      await cli('limits', 'set', '--team-links', '25');
    }
    const other = await newTeam('Blocklist');
    const domain = `blocked-${process.pid}.example.com`;
    for (const answer of await onBoth(() => api('createLink', { team: other, destination: `https://${domain}/` }))) expect(answer.status).toBe(200);
    await cli('block', 'add', domain);
    for (const answer of await onBoth(() => api('createLink', { team: other, destination: `https://${domain}/` }))) {
      expect([answer.status, answer.body.code]).toEqual([400, 'blocked_destination']);
    }
  });

  it('makes exactly 25 links from 30 parallel createLink calls spread over both servers against a 25-link team', async () => {
    const team = await newTeam('Full');
    const sentBefore = [...balancer.sent];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api('createLink', { team, destination: `https://example.com/${i}` })),
    );
    expect(balancer.sent.map((n, i) => n - sentBefore[i]!)).toEqual([15, 15]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(25);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.code])).toEqual(
      Array(5).fill([409, 'team_full']),
    );
    const listed = await api('listLinks', { team, limit: 100 });
    expect(new Set(listed.body.data.map((l: { code: string }) => l.code)).size).toBe(25);
  });

  it('adds up the clicks both servers counted', async () => {
    const made = await link(await newTeam('Clicks'));
    const visits = await Promise.all(Array.from({ length: 10 }, () => visit(`/${made.code}`)));
    expect(visits.map((answer) => answer.status)).toEqual(Array(10).fill(302));
    expect(visits.filter((answer) => answer.upstream === 0)).toHaveLength(5);
    // Each server writes its counts every second.
    const deadline = Date.now() + 5000;
    let total = 0;
    while (Date.now() < deadline && total < 10) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      total = (await api('linkClicks', { code: made.code })).body.last7;
    }
    expect(total).toBe(10);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    for (const answer of await onBoth(() => api('linkClicks', { code: made.code }))) expect(answer.body.last7).toBe(10);
  });

  it('loses no answered write when one server is killed with SIGKILL right after answering', async () => {
    const team = await newTeam('Killed');
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await link(team, { destination: `https://example.com/kept/${i}` }));
    const [killed, survivor] = servers;
    killed!.child.kill('SIGKILL');
    await killed!.stop();
    const listed = await fetch(`http://127.0.0.1:${survivor!.port}/v1/listLinks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ team, limit: 100 }),
    });
    const codes = ((await listed.json()) as { data: Array<{ code: string }> }).data.map((l) => l.code);
    expect(codes.sort()).toEqual(made.map((l) => l.code).sort());
    // Started again on the same file, the killed server has every one of them too.
    servers[0] = await startServerProcess({ dbPath, port: killed!.port, env: { PUBLIC_URL: balancer.url, ...database } });
    const again = await fetch(`http://127.0.0.1:${killed!.port}/v1/listLinks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ team, limit: 100 }),
    });
    expect(((await again.json()) as { data: unknown[] }).data).toHaveLength(10);
  });
});
