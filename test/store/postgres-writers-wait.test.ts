import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { TRUST_MS } from '../../src/store/postgres/changes.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/ports.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';

/**
 * PostgreSQL's writers wait for the readers (store/postgres/changes.ts): a write's caller is answered once every
 * live process told its caches, so another process's very next read, asking no round trip to catch up, sees it.
 */
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function twoProcesses() {
  const url = await newMigratedTestDatabase();
  const a = await openPostgresStore(url);
  const b = await openPostgresStore(url);
  opened.push(a, b);
  const now = new Date();
  const person = await a.people.add({ email: 'wait@example.com', passwordHash: null, agreedTerms: true }, now);
  const team = await a.teams.add({ name: 'Wait', ownerId: person.id }, now);
  const link = await a.links.create(
    { teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: 'https://old.example.com/', name: null, note: null },
    DEFAULT_LIMITS,
    now,
  );
  // Each has heard the other's heartbeat by now.
  await tick(300);
  return { a, b, link, team, person };
}

/** b's answer as a request would have it: caught up, then read (from b's cache once b kept it). */
async function destinationIn(store: Store, code: string): Promise<string | undefined> {
  await store.changes.catchUp();
  return (await store.links.findByCode(code))?.destination;
}

describe('PostgreSQL writers wait until every live process heard', () => {
  it('answers a change made in one process in the other on its very next read, every time', async () => {
    const { a, b, link } = await twoProcesses();
    const told: Array<string[] | null> = [];
    b.changes.subscribe((keys) => told.push(keys));
    const took: number[] = [];
    for (let round = 0; round < 20; round++) {
      const destination = `https://example.com/round/${round}`;
      // Kept by b: without the writer's wait, b answers the old destination below.
      await destinationIn(b, link.code);
      await destinationIn(b, link.code);
      const started = performance.now();
      await a.links.setDestination(link.id, destination, DEFAULT_LIMITS, new Date());
      took.push(performance.now() - started);
      expect(await destinationIn(b, link.code)).toBe(destination);
    }
    // Told by its keys, never as "anything" (b stayed trusted: no read went to the database for want of news).
    expect(told.every((keys) => keys !== null && keys.includes(link.code))).toBe(true);
    // Waited for b's acknowledgement, not for b's trust to run out.
    took.sort((x, y) => x - y);
    expect(took[10]).toBeLessThan(TRUST_MS / 2);
  });

  it('answers a team renamed or deleted in one process as such in the other on its very next read', async () => {
    const { a, b, team, person } = await twoProcesses();
    const teamIn = async (store: Store) => {
      await store.changes.catchUp();
      return store.teams.get(team.id);
    };
    // Kept by b: without the access news, b answers the old name below, and then the deleted team.
    expect((await teamIn(b))?.name).toBe('Wait');
    expect((await teamIn(b))?.name).toBe('Wait');
    expect(await a.teams.rename(team.id, 'Renamed', { personId: person.id })).toMatchObject({ name: 'Renamed' });
    expect((await teamIn(b))?.name).toBe('Renamed');
    expect(await a.teams.delete(team.id, { personId: person.id })).toEqual({ links: 1 });
    expect(await teamIn(b)).toBeNull();
  });

  it('waits no longer than TRUST_MS for a process that stopped listening, which then trusts nothing it kept', async () => {
    const { a, b, link } = await twoProcesses();
    await destinationIn(b, link.code);
    // b's listener hears nothing from now on, as a frozen process's would not (the end-to-end test freezes one).
    const listening = (b.changes as unknown as { listening: { removeAllListeners(event: string): void } }).listening;
    listening.removeAllListeners('notification');
    const started = performance.now();
    await a.links.setDestination(link.id, 'https://new.example.com/', DEFAULT_LIMITS, new Date());
    const took = performance.now() - started;
    expect(took).toBeLessThan(TRUST_MS + 1_000);
    expect(await destinationIn(b, link.code)).toBe('https://new.example.com/');
  });

  it('does not wait for a process that closed', async () => {
    const { a, b, link } = await twoProcesses();
    await b.close();
    opened.splice(opened.indexOf(b), 1);
    await tick(50);
    const started = performance.now();
    await a.links.setDestination(link.id, 'https://new.example.com/', DEFAULT_LIMITS, new Date());
    expect(performance.now() - started).toBeLessThan(TRUST_MS / 2);
  });
});
