import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/server.js';

/** The real server process (`npm start`'s entry), killed with SIGKILL mid-work, loses nothing it answered. */
const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));
let dir: string;
let dbPath: string;

function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_PATH: dbPath },
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

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-crash-'));
  dbPath = join(dir, 'crash.db');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durability', () => {
  it('keeps every answered write when the process is killed with SIGKILL', async () => {
    const person = await json('person', 'add', '--email', 'crash@example.com', '--agree-terms');
    const team = await json('team', 'add', '--name', 'Crash', '--owner', person.email);
    const { token } = await json('token', 'create', '--email', person.email, '--team', team.id);
    await json('limits', 'set', '--per-hour', '1000', '--per-day', '1000', '--first-week-per-day', '1000');
    const port = await freePort();
    const post = (op: string, body: unknown) =>
      fetch(`http://127.0.0.1:${port}/v1/${op}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const first = await start(port);
    const codes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const reply = await post('createLink', { team: team.id, destination: `https://example.com/${i}` });
      codes.push((await reply.json()).code);
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = await start(port);
    try {
      const listed = await (await post('listLinks', { team: team.id, limit: 100 })).json();
      expect(listed.data.map((l: { code: string }) => l.code).sort()).toEqual([...codes].sort());
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
  });
});
