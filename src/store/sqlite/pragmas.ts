import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * PRAGMAs without throwaway statements. better-sqlite3's `db.pragma()` prepares a new statement on every call, and
 * the garbage collector finalizes it later. On Node 24 (the image's), better-sqlite3 12's finalizer may run where
 * Node has no environment at hand and abort the process ("Assertion failed: (env) != nullptr" in
 * RemoveEnvironmentCleanupHook): the container test saw servers die in their first second, after a full
 * collection. So settings run through `exec`, which makes no statement object, and reads through one statement per
 * connection and pragma, which lives as long as its connection.
 */
export function setPragma(db: Db, assignment: string): void {
  db.exec(`PRAGMA ${assignment}`);
}

const reads = new WeakMap<Db, Map<string, Database.Statement>>();

/** The pragma's single value (`user_version`, `journal_mode`). */
export function pragmaValue(db: Db, name: string): unknown {
  let statements = reads.get(db);
  if (!statements) reads.set(db, (statements = new Map()));
  let statement = statements.get(name);
  if (!statement) statements.set(name, (statement = db.prepare(`PRAGMA ${name}`).pluck()));
  return statement.get();
}
