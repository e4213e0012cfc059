import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './migrations.js';
import { registerSpacedText } from './spaced-text.js';
import { pragmaValue, setPragma } from './pragmas.js';
import { walHeaderLook } from './wal-header.js';

export type Db = Database.Database;

/**
 * Opens the database file (made with its folder when missing) in WAL mode with foreign keys on, and applies the
 * migrations it has not seen yet, each in its own transaction.
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // The operator CLI and other processes write to the same file; wait for their short transactions.
  setPragma(db, 'busy_timeout = 5000');
  switchToWal(db);
  // NORMAL is durable across a process kill in WAL mode (only an OS crash may lose the last commits).
  setPragma(db, 'synchronous = NORMAL');
  setPragma(db, 'foreign_keys = ON');
  registerSpacedText(db);
  migrate(db, migrations);
  return db;
}

const WAL_SWITCH_DEADLINE_MS = 5000;

/**
 * Switching a new file to WAL reads it under a shared lock and then needs the exclusive one. When several
 * processes open the new file at once, each may hold the shared lock while asking for the exclusive one; SQLite
 * then answers SQLITE_BUSY at once without calling the busy handler (waiting could never end), so the switch is
 * tried again here after a short pause, until the deadline the busy timeout also keeps.
 */
function switchToWal(db: Db): void {
  const deadline = Date.now() + WAL_SWITCH_DEADLINE_MS;
  for (;;) {
    try {
      setPragma(db, 'journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      pause(5 + Math.floor(Math.random() * 20));
    }
  }
}

/** Blocks this thread briefly: only while a database is opened, before the process serves anything. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Applies the migrations of `list` (migrations.ts; a test's own) that the file has not seen yet, in order, each in
 * its own transaction with the version it brings.
 */
export function migrate(db: Db, list: readonly string[]): void {
  if ((pragmaValue(db, 'user_version') as number) >= list.length) return;
  // Other processes may open the same new file at this very moment (the workers of WORKERS=N, two servers, the
  // CLI): how many migrations are applied is read again under the write lock, so each one is applied once.
  const applyNext = db.transaction((): boolean => {
    const applied = pragmaValue(db, 'user_version') as number;
    if (applied >= list.length) return false;
    db.exec(list[applied]!);
    setPragma(db, `user_version = ${applied + 1}`);
    return true;
  });
  while (applyNext.immediate());
}

/**
 * Tells whether another connection (the operator CLI, another worker or server process) committed since the last
 * call, so caches can be dropped or told what changed. SQLite's data_version is read at most once per task (one
 * callback of the event loop and the promise jobs it queued), shared by every watcher of the connection: requests
 * handled in one task were all read from their sockets before it began, so one reading serves them exactly, and a
 * request that arrives after another process's answer is always handled in a later task, which reads again.
 * (Once per turn of the event loop was not exact: a reading made by a timer was reused by requests read from
 * their sockets later in the same turn.)
 */
export function changeWatcher(db: Db): () => boolean {
  const version = dataVersionOf(db);
  let seen = version();
  return () => {
    const now = version();
    if (now === seen) return false;
    seen = now;
    return true;
  };
}

const dataVersions = new WeakMap<Db, () => number>();

/**
 * The connection's data_version, looked at most once per event-loop callback (a request), and asked of SQLite only when the WAL-index header
 * changed since the last look (wal-header.ts), so most requests skip the read transaction that several processes
 * sharing the file contend for.
 */
function dataVersionOf(db: Db): () => number {
  let version = dataVersions.get(db);
  if (version) return version;
  const read = db.prepare('PRAGMA data_version').pluck();
  const headerChanged = walHeaderLook(db) ?? (() => true);
  let value = 0;
  let fresh = false;
  const forget = () => (fresh = false);
  // Forgotten once the callback that looked has run to its end, its promise jobs included: a tick queued by a
  // promise job runs after the last of them, before the event loop moves on. A request is its own callback (the
  // socket's data), so each looks afresh, while the awaits within one callback (a call's token, membership, budget
  // and link) share one look: a getLink made three looks when the first promise job forgot.
  const forgetAtTheEnd = () => process.nextTick(forget);
  version = () => {
    if (!fresh) {
      if (headerChanged()) value = read.get() as number;
      fresh = true;
      queueMicrotask(forgetAtTheEnd);
    }
    return value;
  };
  dataVersions.set(db, version);
  return version;
}

/**
 * A write transaction that takes the write lock when it begins (BEGIN IMMEDIATE), so a read that later turns into
 * a write can never fail halfway with SQLITE_BUSY while the operator CLI writes too.
 */
export function writeTransaction<A extends unknown[], R>(db: Db, fn: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(fn);
  return (...args: A) => transaction.immediate(...args);
}
