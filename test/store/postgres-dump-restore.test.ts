import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/support/password.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { serverBinaries } from '../helpers/postgres.js';
import { newMigratedTestDatabase, newTestDatabase } from '../helpers/shared-postgres.js';

/**
 * The README's PostgreSQL backup and restore, for real: `pg_dump --format=custom`, then `pg_restore --no-owner` into
 * an empty database. pg_restore runs with an empty search_path, so a function an index calls must find everything
 * it calls without one; before migration 9 the links' search index could not be made again, pg_restore failed, and
 * a server started on the copy searched without it.
 */
const run = promisify(execFile);
let dir: string;
let source: string;
let code: string;

const indexes = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`);
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
};

/** Migrates the database at `url` and makes a link in it (an index's functions run only for rows); its code. */
async function withLink(url: string): Promise<string> {
  const store = await openPostgresStore(url);
  try {
    const now = new Date();
    const person = await store.people.add({ email: 'dump@example.com', passwordHash: await hashPassword('a good long password'), agreedTerms: true }, now);
    const team = await store.teams.add({ name: 'Dumped', ownerId: person.id }, now);
    const link = await store.links.create(
      { teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: 'https://example.com/restored', name: 'kept-through', note: null },
      await store.settings.limits(),
      now,
    );
    return link.code;
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-dump-'));
  source = await newMigratedTestDatabase();
  code = await withLink(source);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pg_dump and pg_restore, as the README says', () => {
  it('restores into an empty database with every index, and a server store finds the links by search', async () => {
    const bin = await serverBinaries();
    const dump = join(dir, 'links.dump');
    await run(join(bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, source]);
    const target = await newTestDatabase();
    await run(join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${target}`, dump]);
    expect(await indexes(target)).toEqual(await indexes(source));
    expect(await indexes(target)).toContain('links_search_grams');
    const store = await openPostgresStore(target);
    try {
      const link = (await store.links.findByCode(code))!;
      const found = await store.links.list(link.teamId, { state: null, q: 'through' }, { limit: 10, after: null });
      expect(found.map((l) => l.code)).toEqual([code]);
    } finally {
      await store.close();
    }
  });

  it('restores a database made before migration 9 too, once a server has opened it (migration 9 mends it)', async () => {
    const old = await newMigratedTestDatabase();
    await withLink(old);
    // As migration 6 left it: the grams function calling link_search_bucket by its bare name; 9 and on not applied.
    const client = new pg.Client({ connectionString: old });
    await client.connect();
    try {
      const { rows } = await client.query<{ body: string }>(`SELECT pg_get_functiondef('link_search_grams'::regproc) AS body`);
      await client.query(rows[0]!.body.replace('(seq >> 13)', 'link_search_bucket(seq)'));
      await client.query('DROP TABLE team_invitations; DELETE FROM schema_migrations WHERE version >= 9');
    } finally {
      await client.end();
    }
    const bin = await serverBinaries();
    const dump = (name: string) => join(dir, name);
    await run(join(bin, 'pg_dump'), ['--format=custom', `--file=${dump('before.dump')}`, old]);
    await expect(run(join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${await newTestDatabase()}`, dump('before.dump')])).rejects.toThrow(
      /function link_search_bucket\(bigint\) does not exist/,
    );
    await (await openPostgresStore(old)).close();
    await run(join(bin, 'pg_dump'), ['--format=custom', `--file=${dump('mended.dump')}`, old]);
    const target = await newTestDatabase();
    await run(join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${target}`, dump('mended.dump')]);
    expect(await indexes(target)).toContain('links_search_grams');
  });
});
