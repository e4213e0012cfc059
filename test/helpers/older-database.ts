import Database from 'better-sqlite3';
import { migrations } from '../../src/store/sqlite/migrations.js';
import { registerSpacedText } from '../../src/store/sqlite/spaced-text.js';

/**
 * A database file as an earlier version of shortlinks left it: the first `version` migrations applied and no
 * more, so a test of a migration starts from exactly the schema it meets in the field, whatever was added since.
 * Open, for the test to put its rows in; the test closes it.
 */
export function olderDatabase(path: string, version: number): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Migration 4's triggers call it.
  registerSpacedText(db);
  for (const sql of migrations.slice(0, version)) db.exec(sql);
  db.pragma(`user_version = ${version}`);
  return db;
}
