import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, HOUR_MS } from '../../src/domain/limits.js';
import { migrations } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/ports.js';
import { olderDatabase } from '../helpers/older-database.js';

let dir: string;
let path: string;
let store: Store;
let emails = 0;
const signedUpAt = new Date('2026-11-21T12:00:00Z');
const aged = new Date(signedUpAt.getTime() + 72 * HOUR_MS);
const rule = { reportsToFlag: 1, establishedAfterHours: 72 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-reports-'));
  path = join(dir, 'store.db');
  store = openSqliteStore(path);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function link() {
  const owner = await store.people.add({ email: `owner${++emails}@example.com`, passwordHash: 'x', agreedTerms: true }, signedUpAt);
  const team = await store.teams.add({ name: 'Owners', ownerId: owner.id }, signedUpAt);
  const input = { teamId: team.id, teamCreatedAt: signedUpAt, destination: 'https://example.com/', name: null, note: null };
  return store.links.create(input, DEFAULT_LIMITS, signedUpAt);
}

async function reporter(options: { agreed?: boolean; inTeam?: boolean; addedByOperator?: boolean }) {
  const { agreed = true, inTeam = true, addedByOperator = false } = options;
  const person = await store.people.add({ email: `r${++emails}@example.com`, passwordHash: 'x', agreedTerms: agreed, addedByOperator }, signedUpAt);
  if (inTeam) await store.teams.add({ name: 'Theirs', ownerId: person.id }, signedUpAt);
  return person.id;
}

/** The link's state after one report by this person at `now`, with one report needed to flag. */
async function afterReport(personId: string, now: Date) {
  const made = await link();
  return (await store.moderation.report(made.id, personId, 'spam', rule, now)).state;
}

describe('who counts towards flagging a link', () => {
  it('a person the operator added counts at once, even without a team or the terms', async () => {
    expect(await afterReport(await reporter({ addedByOperator: true, agreed: false, inTeam: false }), signedUpAt)).toBe('flagged');
  });

  it('a signed-up person counts once the account is old enough, has agreed to the terms and is in a team', async () => {
    expect(await afterReport(await reporter({}), new Date(aged.getTime() - 1))).toBe('active');
    expect(await afterReport(await reporter({}), aged)).toBe('flagged');
    expect(await afterReport(await reporter({ inTeam: false }), aged)).toBe('active');
    expect(await afterReport(await reporter({ agreed: false }), aged)).toBe('active');
  });

  it('keeps every report, and says which count now', async () => {
    const made = await link();
    const fresh = await reporter({});
    const vouched = await reporter({ addedByOperator: true, inTeam: false });
    const twoRule = { ...rule, reportsToFlag: 2 };
    await store.moderation.report(made.id, fresh, 'spam', twoRule, signedUpAt);
    expect((await store.moderation.report(made.id, vouched, 'malware', twoRule, signedUpAt)).state).toBe('active');
    const listed = async (now: Date) => (await store.moderation.openReports(rule, now)).map((r) => [r.personId, r.counts]);
    expect(await listed(signedUpAt)).toEqual(expect.arrayContaining([[fresh, false], [vouched, true]]));
    expect(await listed(aged)).toEqual(expect.arrayContaining([[fresh, true], [vouched, true]]));
  });
});

describe('migration 8', () => {
  it('marks people without a password (only the CLI makes them) as added by the operator', async () => {
    store.close();
    // The schema before migration 8 (migrations 1 to 7 applied), as a database made by an earlier version holds it.
    path = join(dir, 'older.db');
    const db = olderDatabase(path, 7);
    const insert = db.prepare('INSERT INTO people (id, email, password_hash, agreed_terms_at, created_at) VALUES (?, ?, ?, ?, ?)');
    insert.run('person_cli', 'cli@example.com', null, null, signedUpAt.toISOString());
    insert.run('person_web', 'web@example.com', 'scrypt-hash', signedUpAt.toISOString(), signedUpAt.toISOString());
    db.close();

    store = openSqliteStore(path);
    const reopened = new Database(path, { readonly: true });
    expect(reopened.pragma('user_version', { simple: true })).toBe(migrations.length);
    reopened.close();
    expect(await afterReport('person_cli', signedUpAt)).toBe('flagged');
    expect(await afterReport('person_web', signedUpAt)).toBe('active');
  });
});
