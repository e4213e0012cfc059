import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { LinkChanges } from '../../src/store/sqlite/link-changes.js';
import type { Store } from '../../src/store/ports.js';

/**
 * Processes sharing one file learn exactly which links another one changed, so their redirect caches forget just
 * those: two stores on one file stand for two processes (each its own connection).
 */
let dir: string;
let path: string;
const now = new Date('2026-11-21T12:00:00Z');
const limits = { ...DEFAULT_LIMITS, perHour: 1000, perDay: 1000, firstWeekPerDay: 1000 };
const nextTask = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-link-changes-'));
  path = join(dir, 'store.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a store's listeners were told, in order. */
function told(store: Store): Array<string[] | null> {
  const heard: Array<string[] | null> = [];
  store.changes.subscribe((keys) => heard.push(keys));
  return heard;
}

describe('link changes across processes', () => {
  let one: Store;
  let two: Store;
  beforeEach(() => {
    one = openSqliteStore(path);
    two = openSqliteStore(path);
  });
  afterEach(async () => {
    await one.close();
    await two.close();
  });

  async function link(name: string) {
    const person = await one.people.add({ email: `p${Math.random()}@example.com`, passwordHash: null, agreedTerms: true }, now);
    const team = await one.teams.add({ name: 'T', ownerId: person.id }, now);
    return one.links.create({ teamId: team.id, teamCreatedAt: now, destination: 'https://example.com/', name, note: null }, limits, now);
  }

  it("tells the other process the codes and names of another's change, once it catches up", async () => {
    const made = await link('before');
    await nextTask();
    await two.changes.catchUp();
    const heardOne = told(one);
    const heardTwo = told(two);
    await one.links.rename(made.id, 'after', limits, now);
    expect(heardOne).toEqual([[made.code, 'before', 'after']]);
    await nextTask();
    await two.changes.catchUp();
    expect(heardTwo).toEqual([[made.code, 'before', 'after']]);
    await one.links.setState(made.code, 'disabled', now);
    await nextTask();
    await two.changes.catchUp();
    expect(heardTwo).toEqual([[made.code, 'before', 'after'], [made.code, 'after']]);
  });

  it('tells nothing of a commit that changed no link (click counts)', async () => {
    const made = await link('clicked');
    await nextTask();
    await two.changes.catchUp();
    const heardTwo = told(two);
    await one.clicks.add(new Map([[made.id, new Map([['2026-11-21', 3]])]]));
    await nextTask();
    await two.changes.catchUp();
    expect(heardTwo).toEqual([]);
    expect(await two.clicks.daily(made.id, '2026-11-21', '2026-11-21')).toEqual([{ day: '2026-11-21', clicks: 3 }]);
  });
});

describe('the change log', () => {
  let a: Db;
  let b: Db;
  beforeEach(() => {
    a = openDatabase(path);
    b = openDatabase(path);
  });
  afterEach(() => {
    a.close();
    b.close();
  });

  it('serves the requests asking in one turn with one look at the file, and one asking after a commit with a new look', async () => {
    const writer = new LinkChanges(a);
    const reader = new LinkChanges(b);
    const heard: Array<string[] | null> = [];
    reader.subscribe((keys) => heard.push(keys));
    const change = a.transaction((key: string) => writer.changed(key));
    change('k1');
    await nextTask();
    const first = reader.catchUp();
    expect(reader.catchUp()).toBe(first);
    await first;
    expect(heard).toEqual([['k1']]);
    change('k2');
    await nextTask();
    await reader.catchUp();
    expect(heard).toEqual([['k1'], ['k2']]);
  });

  it('tells a process too far behind for the kept log that anything may have changed', async () => {
    const writer = new LinkChanges(a, 3);
    const reader = new LinkChanges(b, 3);
    const heard: Array<string[] | null> = [];
    reader.subscribe((keys) => heard.push(keys));
    const change = a.transaction((key: string) => writer.changed(key));
    for (const key of ['k1', 'k2', 'k3']) change(key);
    await nextTask();
    await reader.catchUp();
    expect(heard).toEqual([['k1', 'k2', 'k3']]);
    for (const key of ['k4', 'k5', 'k6', 'k7']) change(key);
    await nextTask();
    await reader.catchUp();
    expect(heard).toEqual([['k1', 'k2', 'k3'], null]);
    expect(a.prepare('SELECT count(*) FROM link_changes').pluck().get()).toBe(3);
  });

  it('refuses a change told outside a transaction, which could commit apart from the change itself', () => {
    expect(() => new LinkChanges(a).changed('k1')).toThrow('inside its write transaction');
  });
});
