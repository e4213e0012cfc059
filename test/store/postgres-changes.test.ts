import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/ports.js';
import { newMigratedTestDatabase } from '../helpers/shared-postgres.js';

/** PostgreSQL's StoreChanges when its listening connection is cut: told "anything", then back to exact news. */
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function listeningBackendsKilled(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'",
    );
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL changes when the listening connection is cut', () => {
  it('tells "anything" at once, listens again, and tells the next change exactly', async () => {
    const url = await newMigratedTestDatabase();
    const a = await openPostgresStore(url);
    const b = await openPostgresStore(url);
    opened.push(a, b);
    const told: Array<string[] | null> = [];
    b.changes.subscribe((keys) => told.push(keys));

    expect(await listeningBackendsKilled(url)).toBe(2);
    for (let waited = 0; !told.includes(null) && waited < 50; waited++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(told).toContain(null);

    // Listening again (within about 100 ms), b hears a's next change by its keys.
    await new Promise((resolve) => setTimeout(resolve, 500));
    told.length = 0;
    const person = await a.people.add({ email: 'cut@example.com', passwordHash: null, agreedTerms: true }, new Date());
    const team = await a.teams.add({ name: 'Cut', ownerId: person.id }, new Date());
    const link = await a.links.create(
      { teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: 'https://example.com/', name: 'cut-line', note: null },
      DEFAULT_LIMITS,
      new Date(),
    );
    await b.changes.catchUp();
    expect(told).toContainEqual([link.code, 'cut-line']);
    expect(told).not.toContain(null);
  });
});
