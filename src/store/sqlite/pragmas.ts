import { sql } from '../sql/statement.js';
import type { Db } from './database.js';
import { prepare } from './prepare.js';

/**
 * PRAGMAs without throwaway statements. better-sqlite3's `db.pragma()` prepares a new statement on every call, and
 * the garbage collector finalizes it later. On Node 24 (the image's), better-sqlite3 12's finalizer may run where
 * Node has no environment at hand and abort the process ("Assertion failed: (env) != nullptr" in
 * RemoveEnvironmentCleanupHook): the container test saw servers die in their first second, after a full
 * collection. So settings run through `exec`, which makes no statement object, and reads through statements
 * prepared once per connection (prepare.ts), which live as long as the connection.
 */
export function setPragma(db: Db, assignment: string): void {
  db.exec(`PRAGMA ${assignment}`);
}

const READS = {
  user_version: sql<object, Record<string, unknown>>('PRAGMA user_version'),
  journal_mode: sql<object, Record<string, unknown>>('PRAGMA journal_mode'),
};

/** The pragma's single value. */
export function pragmaValue(db: Db, name: keyof typeof READS): unknown {
  return prepare(db, READS[name]).get({})?.[name];
}
