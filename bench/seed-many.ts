import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { generateCode } from '../src/domain/code.js';
import { LinkIds } from '../src/domain/ids.js';
import { randomBytes } from 'node:crypto';
import type { Random } from '../src/domain/random.js';
import { registerSpacedText, spacedText } from '../src/store/sqlite/spaced-text.js';
import { DOMAINS, prng, WORDS } from './seed.js';

/**
 * How the search indexes (links_search, links_search_short) get the seeded rows:
 * - `triggers`: every insert fires the migration's triggers, as the store's own creates do (one spaced_text() JS
 *   call per column per row);
 * - `bulk`: the two search-index insert triggers are dropped for the seed, the rows go in, the triggers are made
 *   again from the very SQL text SQLite held for them (the migrations' text), and both indexes are filled in one
 *   `INSERT … SELECT` each, the same statements the triggers and migration 4 run;
 * - `none`: as `bulk`, but the search indexes are left without the seeded rows (the redirect never reads them).
 */
export type SearchIndexMode = 'triggers' | 'bulk' | 'none';

export interface ManySeeded {
  links: number;
  /** Links in the table after the seed (the seeded ones and any made before). */
  linksInTable: number;
  mode: SearchIndexMode;
  rowsMs: number;
  indexMs: number;
  checkpointMs: number;
  totalMs: number;
  /** Rows each search index finds for a term only the seeded rows hold: 1 when the seeded rows are indexed. */
  searchCheck: { links_search: number; links_search_short: number };
  /** The indexes SQLite has on links (the code lookup uses the unique one on code). */
  linkIndexes: string[];
  /** How SQLite reads a link by code. */
  codePlan: string;
  sampled: number;
}

/** Cryptographic random bytes as the store draws them, served from a pool: one system call per 64 KiB, not per code. */
function pooledRandom(): Random {
  let pool = randomBytes(65_536);
  let at = 0;
  return {
    bytes(n) {
      if (at + n > pool.length) {
        pool = randomBytes(Math.max(65_536, n));
        at = 0;
      }
      at += n;
      return pool.subarray(at - n, at);
    },
  };
}

const SEARCH_INSERT_TRIGGERS = ['links_search_insert', 'links_search_short_insert'];
const RARE_TERM = 'quokkaflux';

/**
 * `count` links in team `teamId`, written straight into the database file in one transaction on its own
 * connection (the server's connection stays open, idle): rows as the store writes them (codes, names, links,
 * link_events; the teams.link_count trigger stays on). Then a random sample of `sample` of their codes, in random
 * order, one a line, to `codesPath`. One seeded link holds the rare term "quokkaflux" in its note.
 */
export function seedManyLinks(
  dbPath: string,
  teamId: string,
  count: number,
  options: { mode?: SearchIndexMode; sample?: number; codesPath?: string } = {},
): ManySeeded {
  const { mode = 'bulk', sample = 0, codesPath } = options;
  const started = performance.now();
  const random = prng(4242);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const entropy = pooledRandom();
  const ids = new LinkIds(entropy);
  const db = new Database(dbPath);
  registerSpacedText(db); // the search index's triggers (and the bulk fill) call it
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -1048576'); // 1 GiB for this connection only: the seed's process, not the server's
  db.pragma('temp_store = MEMORY'); // statement journals (the links triggers need one per insert) in memory, not temp files
  const code = db.prepare('INSERT OR IGNORE INTO codes (code) VALUES (?)');
  const name = db.prepare('INSERT INTO names (name, team_id, link_id, retired) VALUES (?, ?, ?, 0)');
  const link = db.prepare(
    `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`,
  );
  const event = db.prepare("INSERT INTO link_events (team_id, kind, at) VALUES (?, 'create', ?)");
  const before = (db.prepare('SELECT coalesce(max(seq), 0) FROM links').pluck().get() as number) ?? 0;
  const startAt = Date.now() - count * 1000 - 86_400_000; // one a second, ending a day ago
  const rare = Math.floor(count / 3);
  let rowsMs = 0;
  let indexMs = 0;

  db.transaction(() => {
    const triggers = new Map<string, string>();
    if (mode !== 'triggers') {
      const sqlOf = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").pluck();
      for (const trigger of SEARCH_INSERT_TRIGGERS) {
        const sql = sqlOf.get(trigger) as string | undefined;
        if (!sql) throw new Error(`No trigger ${trigger}: has the schema changed?`);
        triggers.set(trigger, sql);
        db.exec(`DROP TRIGGER ${trigger}`);
      }
    }
    const rowsStarted = performance.now();
    for (let i = 0; i < count; i++) {
      const destination = `https://${pick(DOMAINS)}/${pick(WORDS)}/${pick(WORDS)}-${i}`;
      const note = i === rare ? `${RARE_TERM} sighting` : random() < 0.4 ? `${pick(WORDS)} ${pick(WORDS)} ${i}` : null;
      const linkName = random() < 0.1 ? `${pick(WORDS)}-r${i}` : null;
      const at = startAt + i * 1000;
      const { id, createdAt } = ids.next(at);
      let drawn = generateCode(entropy);
      while (code.run(drawn).changes === 0) drawn = generateCode(entropy);
      if (linkName) name.run(linkName, teamId, id);
      link.run(id, teamId, drawn, linkName, destination, note, createdAt.toISOString());
      event.run(teamId, at);
    }
    rowsMs = performance.now() - rowsStarted;
    const indexStarted = performance.now();
    // The triggers again, exactly as SQLite held them (the migrations' text), before anything else can write.
    for (const sql of triggers.values()) db.exec(sql);
    if (mode === 'bulk') {
      db.prepare(
        `INSERT INTO links_search(rowid, code, name, destination, note)
         SELECT seq, code, name, destination, note FROM links WHERE seq > ?`,
      ).run(before);
      db.prepare(
        `INSERT INTO links_search_short(rowid, code, name, destination, note)
         SELECT seq, spaced_text(code), spaced_text(name), spaced_text(destination), spaced_text(note)
         FROM links WHERE seq > ?`,
      ).run(before);
    }
    indexMs = performance.now() - indexStarted;
  }).immediate();

  const checkpointStarted = performance.now();
  db.pragma('wal_checkpoint(TRUNCATE)'); // as a long-running server's file would be: the rows in the main file
  const checkpointMs = performance.now() - checkpointStarted;

  const searchCheck = {
    links_search: db.prepare('SELECT count(*) FROM links_search WHERE links_search MATCH ?').pluck().get(`"${RARE_TERM}"`) as number,
    links_search_short: db
      .prepare('SELECT count(*) FROM links_search_short WHERE links_search_short MATCH ?')
      .pluck()
      .get(`"${spacedText(RARE_TERM)}"`) as number,
  };
  const linksInTable = db.prepare('SELECT count(*) FROM links').pluck().get() as number;
  const linkIndexes = (db.prepare('PRAGMA index_list(links)').all() as Array<{ name: string; unique: number }>).map(
    (index) => `${index.name}${index.unique ? ' (unique)' : ''}`,
  );
  const codePlan = (db.prepare('EXPLAIN QUERY PLAN SELECT * FROM links l WHERE l.code = ?').all('x') as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join('; ');

  let sampled = 0;
  if (sample > 0 && codesPath) {
    const codes = db
      .prepare('SELECT code FROM links WHERE seq > ? ORDER BY random() LIMIT ?')
      .pluck()
      .all(before, sample) as string[];
    writeFileSync(codesPath, codes.join('\n'));
    sampled = codes.length;
  }
  db.close();
  return {
    links: count,
    linksInTable,
    mode,
    rowsMs,
    indexMs,
    checkpointMs,
    totalMs: performance.now() - started,
    searchCheck,
    linkIndexes,
    codePlan,
    sampled,
  };
}

/**
 * Run as a process of its own (bench/servers/ours.ts does, with SEED_REDIRECT_LINKS), so that the seed's memory
 * never shows in the server's RSS: `SEED_DB SEED_TEAM SEED_COUNT SEED_MODE SEED_SAMPLE SEED_CODES SEED_RESULT`.
 */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = process.env;
  const result = seedManyLinks(env.SEED_DB!, env.SEED_TEAM!, Number(env.SEED_COUNT), {
    mode: (env.SEED_MODE ?? 'bulk') as SearchIndexMode,
    sample: Number(env.SEED_SAMPLE ?? 0),
    codesPath: env.SEED_CODES,
  });
  writeFileSync(env.SEED_RESULT!, JSON.stringify(result));
}
