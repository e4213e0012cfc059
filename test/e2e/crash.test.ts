import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/** The real server process (`npm start`'s entry), killed with SIGKILL mid-work, loses nothing it answered. */
let dir: string;
let dbPath: string;

function start(port: number): Promise<ServerProcess> {
  return startServerProcess({ dbPath, port });
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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-crash-'));
  dbPath = join(dir, 'crash.db');
});
afterAll(async () => {
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
    first.child.kill('SIGKILL');
    await first.stop();

    const second = await start(port);
    try {
      const listed = await post('listLinks', { team: team.id, limit: 100 });
      expect(listed.data.map((l: { code: string }) => l.code).sort()).toEqual([...codes].sort());
    } finally {
      await second.stop();
    }
  });

  it('keeps click counts through a graceful restart (they are flushed at shutdown)', async () => {
    const { team, port, post } = await setUp('restart@example.com');

    const first = await start(port);
    const { code } = await post('createLink', { team: team.id, destination: 'https://example.com/' });
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36' };
    for (let i = 0; i < 4; i++) await fetch(`http://127.0.0.1:${port}/${code}`, { headers: browser, redirect: 'manual' });
    await first.stop();

    const second = await start(port);
    try {
      const clicks = await post('linkClicks', { code });
      expect(clicks.last7).toBe(4);
    } finally {
      await second.stop();
    }
  });
});
