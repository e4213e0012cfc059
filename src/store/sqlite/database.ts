import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './migrations.js';
import { registerSpacedText } from './spaced-text.js';

export type Db = Database.Database;

/**
 * Opens the database file (made with its folder when missing) in WAL mode with foreign keys on, and applies the
 * migrations it has not seen yet, each in its own transaction.
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across a process kill in WAL mode (only an OS crash may lose the last commits).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // The operator CLI writes to the same file while the server runs; wait for its short transactions.
  db.pragma('busy_timeout = 5000');
  registerSpacedText(db);
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  for (let version = applied; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

/**
 * Tells whether another connection (the operator CLI) committed since the last call, so caches of operator data
 * (limits, blocklist, links' states) can be dropped on the next request. SQLite is asked at most once per turn of
 * the event loop: a pragma read costs a few microseconds, and requests handled in one turn were all in flight
 * together, so that is as exact as asking for each.
 */
export function changeWatcher(db: Db): () => boolean {
  const read = db.prepare('PRAGMA data_version').pluck();
  let seen = read.get() as number;
  let askedThisTurn = false;
  return () => {
    if (askedThisTurn) return false;
    askedThisTurn = true;
    setImmediate(() => (askedThisTurn = false));
    const now = read.get() as number;
    if (now === seen) return false;
    seen = now;
    return true;
  };
}

/**
 * A write transaction that takes the write lock when it begins (BEGIN IMMEDIATE), so a read that later turns into
 * a write can never fail halfway with SQLITE_BUSY while the operator CLI writes too.
 */
export function writeTransaction<A extends unknown[], R>(db: Db, fn: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(fn);
  return (...args: A) => transaction.immediate(...args);
}
