import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { freePort } from '../helpers/server.js';

/** The real server process (`npm start`'s entry), killed with SIGKILL mid-work, loses nothing it answered. */
const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));
let dir: string;
let dbPath: string;

function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_PATH: dbPath, DNS_SERVERS: dns.servers.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function json(...args: string[]) {
  const run = await runCli(dbPath, ...args, '--json');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

/** A person with a team and token (made by the CLI), a free port, and a poster of API calls to it. */
async function setUp(email: string) {
  const person = await json('person', 'add', '--email', email, '--agree-terms');
  const team = await json('team', 'add', '--name', 'Durable', '--owner', person.email);
  const { token } = await json('token', 'create', '--email', person.email, '--team', team.id);
  const port = await freePort();
  const post = async (op: string, body: unknown) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    return (await fetch(`http://127.0.0.1:${port}/v1/${op}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  };
  return { team, port, post };
}

let dns: DnsServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-crash-'));
  dbPath = join(dir, 'crash.db');
  // The server checks destinations by DNS: give it a resolver on loopback where every name is public.
  dns = await startDnsServer({}, { a: ['93.184.216.34'] });
});
afterAll(async () => {
  await dns.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('durability', () => {
  it('keeps every answered write when the process is killed with SIGKILL', async () => {
    const { team, port, post } = await setUp('crash@example.com');
    await json('limits', 'set', '--per-hour', '1000', '--per-day', '1000', '--first-week-per-day', '1000');

    const first = await start(port);
    const codes: string[] = [];
    for (let i = 0; i < 20; i++) {
      codes.push((await post('createLink', { team: team.id, destination: `https://example.com/${i}` })).code);
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = await start(port);
    try {
      const listed = await post('listLinks', { team: team.id, limit: 100 });
      expect(listed.data.map((l: { code: string }) => l.code).sort()).toEqual([...codes].sort());
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
  });

  it('keeps click counts through a graceful restart (they are flushed at shutdown)', async () => {
    const { team, port, post } = await setUp('restart@example.com');

    const first = await start(port);
    const { code } = await post('createLink', { team: team.id, destination: 'https://example.com/' });
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36' };
    for (let i = 0; i < 4; i++) await fetch(`http://127.0.0.1:${port}/${code}`, { headers: browser, redirect: 'manual' });
    first.kill('SIGTERM');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = await start(port);
    try {
      const clicks = await post('linkClicks', { code });
      expect(clicks.last7).toBe(4);
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
  });
});
