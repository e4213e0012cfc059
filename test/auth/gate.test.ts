import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGate } from '../../src/auth/gate.js';
import { issueToken } from '../../src/auth/personal-token.js';
import { cryptoRandom } from '../../src/domain/random.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/ports.js';
import { memoryRateLimiter } from '../../src/support/memory-rate-limiter.js';

const now = new Date('2026-11-27T12:00:00Z');
let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-gate-'));
  store = openSqliteStore(join(dir, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the gate', () => {
  it("reads the token's grant and the limits in one synchronous stretch, so they share one look at the database", async () => {
    // On SQLite each cached read looks whether another process committed, once per stretch of synchronous code
    // (store/sqlite/database.ts); a microtask between the two reads would cost the call a second look.
    const owner = await store.people.add({ email: 'o@example.com', passwordHash: null, agreedTerms: true }, now);
    const team = await store.teams.add({ name: 'T', ownerId: owner.id }, now);
    const { token } = await issueToken(store, cryptoRandom, { personId: owner.id, teamId: team.id, scopes: null, limited: false }, now);
    const events: string[] = [];
    const noted = <A extends unknown[], R>(name: string, read: (...args: A) => R) => (...args: A): R => {
      events.push(name);
      queueMicrotask(() => events.push('microtask'));
      return read(...args);
    };
    const watched = {
      ...store,
      tokens: { ...store.tokens, grant: noted('grant', store.tokens.grant) },
      settings: { ...store.settings, limits: noted('limits', store.settings.limits) },
    } as Store;
    const gate = createGate({ store: watched, rates: memoryRateLimiter(), clock: { now: () => now }, publicUrl: 'http://links.test', clientAddress: () => '127.0.0.1' });
    const headers: Record<string, string | number> = {};
    const res = { setHeader: (name: string, value: string | number) => void (headers[name] = value) } as unknown as ServerResponse;
    const req = { headers: { authorization: `Bearer ${token}` } } as IncomingMessage;

    const caller = await gate.admit(req, res);

    expect(caller().personId).toBe(owner.id);
    expect(events.slice(0, 2).sort()).toEqual(['grant', 'limits']);
    expect(headers).toEqual({ 'RateLimit-Policy': '"minute";q=600;w=60', RateLimit: '"minute";r=599;t=60' });
  });
});
