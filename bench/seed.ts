import Database from 'better-sqlite3';
import pg from 'pg';
import { BatchInsert } from '../src/store/copy/insert.js';
import { issueToken } from '../src/auth/personal-token.js';
import { generateCode } from '../src/domain/code.js';
import { LinkIds } from '../src/domain/ids.js';
import { registerSpacedText } from '../src/store/sqlite/spaced-text.js';
import { cryptoRandom } from '../src/domain/random.js';
import type { LinkRecord, Store } from '../src/store/ports.js';
import type { Limits } from '../src/domain/limits.js';

/** Limits high enough that the bench never meets one. */
// Typed, so that a limit renamed in the domain cannot leave a key here that nothing reads.
export const NO_LIMITS: Partial<Limits> = {
  callsPerMinute: 1e9,
  perHour: 1e9,
  perDay: 1e9,
  firstWeekPerDay: 1e9,
  maxLinksPerTeam: 1e9,
  changesPerHour: 1e9,
};

/** The link every getLink server answers (the bare servers answer it verbatim; ours reads a link like it). */
export const SAMPLE_LINK = {
  id: 'link_0mhx3k2p50000AbCdEfGh',
  code: 'AbCdEf1',
  name: null,
  destination: 'https://example.com/articles/2026/benchmarking-short-links',
  note: 'Bench sample link',
  state: 'active',
  createdAt: '2026-11-21T12:00:00.000Z',
  changedAt: null,
};

export interface Actor {
  personId: string;
  teamId: string;
  teamCreatedAt: Date;
  token: string;
}

/** A person who agreed to the terms, their team and a personal token, with the limits raised. */
export async function seedActor(store: Store, now: Date): Promise<Actor> {
  await store.settings.setLimits(NO_LIMITS);
  const person = await store.people.add({ email: 'bench@example.com', passwordHash: null, agreedTerms: true }, now);
  const team = await store.teams.add({ name: 'Bench', ownerId: person.id }, now);
  const { token } = await issueToken(store, cryptoRandom, { personId: person.id, teamId: team.id, scopes: null, limited: false }, now);
  return { personId: person.id, teamId: team.id, teamCreatedAt: new Date(team.createdAt), token };
}

/**
 * `count` more people, each a member of the actor's team with a personal token of their own: callers whose budgets
 * are counted apart (calls per minute are per person), as many people calling at once are.
 */
export async function seedPeople(store: Store, actor: Actor, count: number, now: Date): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const person = await store.people.add({ email: `bench${i}@example.com`, passwordHash: null, agreedTerms: true }, now);
    await store.teams.addMember(actor.teamId, person.id, now);
    tokens.push((await issueToken(store, cryptoRandom, { personId: person.id, teamId: actor.teamId, scopes: null, limited: false }, now)).token);
  }
  return tokens;
}

export async function createSampleLink(store: Store, actor: Actor, now: Date): Promise<LinkRecord> {
  const { destination, note } = SAMPLE_LINK;
  return store.links.create(
    { teamId: actor.teamId, teamCreatedAt: actor.teamCreatedAt, destination, name: null, note },
    await store.settings.limits(),
    now,
  );
}

export const DOMAINS = [
  'example.com', 'docs.github.com', 'en.wikipedia.org', 'news.ycombinator.com', 'shop.acme.io', 'blog.vercel.app',
  'developer.mozilla.org', 'www.nytimes.com', 'medium.com', 'stackoverflow.com', 'www.bbc.co.uk', 'arxiv.org',
];
export const WORDS = [
  'report', 'meeting', 'launch', 'pricing', 'roadmap', 'hiring', 'budget', 'design', 'release', 'notes', 'invoice',
  'summary', 'research', 'guide', 'tutorial', 'review', 'campaign', 'survey', 'onboarding', 'policy', 'docs',
  'metrics', 'retro', 'offsite', 'demo', 'video', 'podcast', 'newsletter', 'signup', 'careers',
];

/**
 * Terms for listLinks q, one a kind: by length (1, 2, 3+ characters) and by how many of the 100,000 seeded links hold
 * them (none, a few, a share, all), repetitive ones whose grams are all common, and LIKE's wildcards and escape, which
 * must match literally. The shares are of the default seed (seedRows).
 */
export const SEARCH_TERMS: Array<{ label: string; q: string }> = [
  { label: 'common (docs)', q: 'docs' },
  { label: 'rare, 1 link (zebracorn)', q: 'zebracorn' },
  { label: 'long, 1 link (zebracorn sighting)', q: 'zebracorn sighting' },
  { label: '3+ chars, 0.8% of links (mozilla.org/d)', q: 'mozilla.org/d' },
  { label: '3+ chars, 2.5% of links (podcast )', q: 'podcast ' },
  { label: '3+ chars, 5% of links (com/d)', q: 'com/d' },
  { label: '1-char, no match (~)', q: '~' },
  { label: '1-char, 20 links (§)', q: '§' },
  { label: '1-char, every link (/)', q: '/' },
  { label: '2-char, no match (~~)', q: '~~' },
  { label: '2-char, 20 links (§7)', q: '§7' },
  { label: '2-char, 0.6% of links (zq)', q: 'zq' },
  { label: '2-char, common (io)', q: 'io' },
  { label: '2-char, every link (//)', q: '//' },
  { label: 'no match (xylophone)', q: 'xylophone' },
  { label: 'long, no match (58 characters)', q: 'https://docs.github.com/docs/docs-and-more-docs-everywhere' },
  { label: 'no match, common trigrams (docs/docs/docs)', q: 'docs/docs/docs' },
  { label: 'no match, repetitive (https://https://)', q: 'https://https://' },
  { label: 'literal %, no match (%)', q: '%' },
  { label: 'literal _, no match (_)', q: '_' },
  { label: 'literal \\, no match (\\)', q: '\\' },
];

/** A small deterministic PRNG (mulberry32), so every run seeds the same text. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` links in the actor's team, written straight into the database file in one transaction on a second
 * connection, before the server starts: rows as the store writes them (links, codes, names, link_events; the
 * trigger fills the search index). Making them one by one through `store.links.create` takes minutes at this size,
 * because each create counts the team's links. Times start `count` minutes ago, one minute apart.
 * One link in the middle holds the rare term "zebracorn"; 1 in 5,000 holds "§7".
 */
/** The seeded links, the same text every run: one in 10 named, 4 in 10 with a note, one rare note in the middle. */
export function* seedRows(count: number): Generator<{ destination: string; note: string | null; name: string | null; at: number }> {
  const random = prng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const start = Date.now() - count * 60_000;
  const rare = Math.floor(count / 2);
  for (let i = 0; i < count; i++) {
    const destination = `https://${pick(DOMAINS)}/${pick(WORDS)}/${pick(WORDS)}-${i}`;
    const drawn = i === rare ? 'zebracorn sighting' : random() < 0.4 ? `${pick(WORDS)} ${pick(WORDS)} ${i}` : null;
    const name = random() < 0.1 ? `${pick(WORDS)}-${i}` : null;
    // One link in 5,000 (20 of 100,000) also holds a character no other text does: a short q that matches a few.
    const note = i % 5000 === 2500 ? `${drawn ?? ''} §7`.trim() : drawn;
    yield { destination, note, name, at: start + i * 60_000 };
  }
}

/**
 * seedLinks for a PostgreSQL database: the same links, in batches, in one transaction; then VACUUM ANALYZE. (No
 * creation events: listLinks does not read them.) Resolves to the links' ids.
 */
export async function seedLinksPostgres(url: string, actor: Actor, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = new LinkIds(cryptoRandom);
    const codes = new Set<string>();
    const made: string[] = [];
    await client.query('BEGIN');
    const table = (name: string, columns: string[]) => new BatchInsert(client, name, columns, false);
    const inserts = {
      codes: table('codes', ['code']),
      names: table('names', ['name', 'team_id', 'link_id', 'retired']),
      links: table('links', ['id', 'team_id', 'code', 'name', 'destination', 'note', 'state', 'created_at']),
    };
    for (const row of seedRows(count)) {
      const { id, createdAt } = ids.next(row.at);
      made.push(id);
      let drawn = generateCode(cryptoRandom);
      while (codes.has(drawn)) drawn = generateCode(cryptoRandom);
      codes.add(drawn);
      await inserts.codes.add([drawn]);
      if (row.name !== null) await inserts.names.add([row.name, actor.teamId, id, false]);
      await inserts.links.add([id, actor.teamId, drawn, row.name, row.destination, row.note, 'active', createdAt.toISOString()]);
    }
    for (const insert of Object.values(inserts)) await insert.flush();
    await client.query('COMMIT');
    // The trigram index's pending entries are merged by (auto)vacuum; a deployment gets there on its own.
    await client.query('VACUUM ANALYZE links');
    return made;
  } finally {
    await client.end();
  }
}

/** The links of seedLinksPostgres in a SQLite file; their ids. */
export function seedLinks(dbPath: string, actor: Actor, count: number): string[] {
  const ids = new LinkIds(cryptoRandom);
  const db = new Database(dbPath);
  registerSpacedText(db); // the search index's triggers call it
  db.pragma('busy_timeout = 5000');
  const code = db.prepare('INSERT OR IGNORE INTO codes (code) VALUES (?)');
  const name = db.prepare('INSERT INTO names (name, team_id, link_id, retired) VALUES (?, ?, ?, 0)');
  const link = db.prepare(
    `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`,
  );
  const event = db.prepare("INSERT INTO link_events (team_id, kind, at) VALUES (?, 'create', ?)");
  const made: string[] = [];
  db.transaction(() => {
    for (const { destination, note, name: linkName, at } of seedRows(count)) {
      const { id, createdAt } = ids.next(at);
      made.push(id);
      let drawn = generateCode(cryptoRandom);
      while (code.run(drawn).changes === 0) drawn = generateCode(cryptoRandom);
      if (linkName) name.run(linkName, actor.teamId, id);
      link.run(id, actor.teamId, drawn, linkName, destination, note, createdAt.toISOString());
      event.run(actor.teamId, at);
    }
  }).immediate();
  db.close();
  return made;
}
