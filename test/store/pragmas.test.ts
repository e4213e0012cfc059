import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pragmaValue, setPragma } from '../../src/store/sqlite/pragmas.js';

/** PRAGMAs read and set without a new statement each time (src/store/sqlite/pragmas.ts says why). */
describe('pragmas', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pragmas-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sets and reads a pragma, reading through one statement per connection and pragma', () => {
    const db = new Database(join(dir, 'a.db'));
    const prepare = db.prepare.bind(db);
    let prepared = 0;
    db.prepare = ((source: string) => {
      prepared += 1;
      return prepare(source);
    }) as typeof db.prepare;
    setPragma(db, 'journal_mode = WAL');
    setPragma(db, 'user_version = 7');
    expect([pragmaValue(db, 'journal_mode'), pragmaValue(db, 'user_version')]).toEqual(['wal', 7]);
    setPragma(db, 'user_version = 8');
    expect(pragmaValue(db, 'user_version')).toBe(8);
    expect(prepared).toBe(2);
    db.close();
  });
});
