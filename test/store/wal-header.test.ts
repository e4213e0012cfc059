import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { walHeaderLook } from '../../src/store/sqlite/wal-header.js';

/** The first look at whether another connection committed: SQLite's WAL-index header, read without its locks. */
let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-wal-header-'));
  // As /proc names it: the real path, in case the temp folder is reached through a link.
  path = join(realpathSync(dir), 'store.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** How many descriptors this process holds of the file's -shm (SQLite's own and ours). */
function shmDescriptors(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === `${path}-shm`;
    } catch {
      return false;
    }
  }).length;
}

describe('the WAL-index header look', () => {
  it('changes with every commit of another connection, and only then', () => {
    const db = openDatabase(path);
    const other = new Database(path);
    try {
      const changed = walHeaderLook(db)!;
      expect(changed()).toBe(true); // the first look has nothing to compare with
      expect(changed()).toBe(false);
      db.prepare('SELECT count(*) FROM settings').get();
      expect(changed()).toBe(false);
      for (let i = 0; i < 3; i++) {
        other.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(`k${i}`, 'v');
        expect(changed()).toBe(true);
        expect(changed()).toBe(false);
      }
    } finally {
      other.close();
      db.close();
    }
  });

  it('is not taken for a database in memory', () => {
    const db = openDatabase(':memory:');
    expect(walHeaderLook(db)).toBeNull();
    db.close();
  });

  it('keeps its descriptor until the last connection to the file in this process closed', () => {
    // Closing any descriptor of a file drops the process's POSIX locks on it, SQLite's locks on the -shm included.
    const a = openDatabase(path);
    const b = openDatabase(path);
    const sqlites = shmDescriptors();
    walHeaderLook(a);
    walHeaderLook(b);
    expect(shmDescriptors()).toBe(sqlites + 1);
    a.close();
    a.close();
    expect(shmDescriptors()).toBe(sqlites + 1);
    b.close();
    expect(shmDescriptors()).toBe(0);
  });
});
