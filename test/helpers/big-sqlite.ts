import { openDatabase } from '../../src/store/sqlite/database.js';

/**
 * Fills the SQLite database at `path` with one person, one team ('team_big') and `links` links straight into the
 * tables, triggers and all (search index, link counts): the store would take minutes. A third of the links have a
 * name, a fifth a note, every other one a day of clicks.
 */
export function seedBigSqlite(path: string, links: number): void {
  const db = openDatabase(path);
  try {
    db.transaction(() => {
      db.exec(`INSERT INTO people (id, email, created_at) VALUES ('person_big', 'big@example.com', '2026-01-01T00:00:00.000Z')`);
      db.exec(`INSERT INTO teams (id, name, created_at) VALUES ('team_big', 'Big', '2026-01-01T00:00:00.000Z')`);
      db.exec(`
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Math.trunc(links)})
        INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
        SELECT 'link_big_' || i, 'team_big', 'B' || i, CASE WHEN i % 3 = 0 THEN 'big-' || i END,
          'https://example.com/page/' || i, CASE WHEN i % 5 = 0 THEN 'note ' || i END, 'active', '2026-01-01T00:00:00.000Z'
        FROM n`);
      db.exec(`INSERT INTO codes (code) SELECT code FROM links`);
      db.exec(`INSERT INTO names (name, team_id, link_id) SELECT name, team_id, id FROM links WHERE name IS NOT NULL`);
      db.exec(`INSERT INTO clicks (link_id, day, count) SELECT id, '2026-01-01', seq FROM links WHERE seq % 2 = 0`);
    })();
  } finally {
    db.close();
  }
}
