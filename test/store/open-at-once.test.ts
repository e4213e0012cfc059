import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/sqlite/migrations.js';
import { inProcessesAtOnce } from '../helpers/at-once.js';

/**
 * Several processes opening one new database file at the same moment (the workers of WORKERS=N, two servers
 * started together, the CLI beside them) apply each migration exactly once, and all of them open it.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-open-at-once-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('opening a new database from several processes at once', () => {
  it('applies every migration once and every process opens it', async () => {
    for (let round = 0; round < 3; round++) {
      const path = join(dir, `fresh-${round}.db`);
      const runs = await inProcessesAtOnce(4, `await openSqliteStore(${JSON.stringify(path)}).close();`);
      expect(runs.filter((run) => run.code !== 0).map((run) => run.stderr)).toEqual([]);
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        // The cursor secret is made once: every process reads the one the first made.
        expect(db.prepare("SELECT count(*) FROM settings WHERE key = 'cursor_secret'").pluck().get()).toBe(1);
      } finally {
        db.close();
      }
    }
  });
});
