import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_HELD_MS } from '../../src/store/idempotency-claims.js';
import { cliJson } from '../helpers/cli.js';
import { testDatabase } from '../helpers/database-env.js';
import { freePort } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Idempotent calls through a crash (issue 20): the real server, many idempotent createLink and createLinks calls
 * at once, SIGKILL mid-load, a restart on the same database, and every key retried. A key never makes a second
 * link, a retry is answered within seconds (a dead process's claim is taken over), and a replay is the first
 * answer. On SQLite and, in the postgres project, on PostgreSQL.
 */
let dir: string;
let dbPath: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-idempotent-crash-'));
  dbPath = join(dir, 'crash.db');
  env = { ...(await testDatabase(dbPath)) };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Reply {
  status: number;
  replayed: boolean;
  body: string;
}

const KEYS = 40;
const ITEMS = 5;

describe('idempotent calls through a SIGKILL', { timeout: 60_000 }, () => {
  it('make each key’s links once, and answer every retry within seconds with the first answer', async () => {
    const [person] = await Promise.all([
      cliJson(dbPath, 'person', 'add', '--email', 'retry@example.com', '--agree-terms'),
      cliJson(dbPath, 'limits', 'set', '--per-hour', '5000', '--per-day', '5000', '--first-week-per-day', '5000', '--team-links', '5000', '--calls-per-minute', '100000'),
    ]);
    const team = await cliJson(dbPath, 'team', 'add', '--name', 'Retried', '--owner', person.email);
    const { token } = await cliJson(dbPath, 'token', 'create', '--email', person.email, '--team', team.id);
    const port = await freePort();

    // Half createLink, half createLinks of a few links (one of them refused: a name another item took first).
    const calls = Array.from({ length: KEYS }, (_, i) => {
      const destination = (j: number) => `https://example.com/${i}/${j}`;
      return i % 2 === 0
        ? { key: `key-${i}`, op: 'createLink', body: { team: team.id, destination: destination(0), note: `Call ${i}` } }
        : {
            key: `key-${i}`,
            op: 'createLinks',
            body: {
              team: team.id,
              links: [
                ...Array.from({ length: ITEMS - 1 }, (_, j) => ({ destination: destination(j), name: j === 0 ? `name-${i}` : null })),
                { destination: destination(ITEMS), name: `name-${i}` },
              ],
            },
          };
    });
    const send = async (call: (typeof calls)[number]): Promise<Reply> => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/${call.op}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': call.key },
        body: JSON.stringify(call.body),
      });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', body: await response.text() };
    };

    const first = await startServerProcess({ dbPath, port, env });
    const answered = new Map<string, Reply>();
    let killed = false;
    await Promise.all(
      calls.map(async (call) => {
        const reply = await send(call).catch(() => null);
        if (reply === null || killed) return;
        answered.set(call.key, reply);
        // Mid-load: a quarter of the calls answered, the rest claimed, writing, keeping answers, or not yet read.
        if (answered.size === KEYS / 4) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }),
    );
    await first.stop();
    expect(killed).toBe(true);
    for (const reply of answered.values()) expect(reply.status).toBe(200);

    const second = await startServerProcess({ dbPath, port, env });
    try {
      const restarted = Date.now();
      const final = new Map<string, Reply>();
      const waits: number[] = [];
      await Promise.all(
        calls.map(async (call) => {
          for (;;) {
            const reply = await send(call);
            // In use: the dead process's claim is held a few seconds more. Anything else is the key's answer.
            if (reply.status !== 409 || Date.now() - restarted > 4 * CLAIM_HELD_MS) {
              final.set(call.key, reply);
              waits.push(Date.now() - restarted);
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }),
      );
      expect(Math.max(...waits)).toBeLessThan(3 * CLAIM_HELD_MS);

      const madeCodes: string[] = [];
      for (const call of calls) {
        const reply = final.get(call.key)!;
        expect({ key: call.key, status: reply.status }).toEqual({ key: call.key, status: 200 });
        const before = answered.get(call.key);
        if (before) expect(reply).toEqual({ status: 200, replayed: true, body: before.body });
        const body = JSON.parse(reply.body);
        if (call.op === 'createLink') madeCodes.push(body.code);
        else {
          expect(body.results.map((r: { status: number; code: string | null }) => [r.status, r.code])).toEqual([
            ...Array.from({ length: ITEMS - 1 }, () => [200, null]),
            [409, 'name_taken'],
          ]);
          madeCodes.push(...body.results.filter((r: { link: unknown }) => r.link).map((r: { link: { code: string } }) => r.link.code));
        }
        // Once more: whoever made it, the key now replays its answer.
        expect(await send(call)).toEqual({ status: 200, replayed: true, body: reply.body });
      }

      const listed = await fetch(`http://127.0.0.1:${port}/v1/listLinks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ team: team.id, limit: 100 }),
      }).then((response) => response.json());
      expect(listed.data.map((link: { code: string }) => link.code).sort()).toEqual(madeCodes.sort());
      expect(madeCodes).toHaveLength((KEYS / 2) * 1 + (KEYS / 2) * (ITEMS - 1));
    } finally {
      await second.stop();
    }
  });
});
