import { sep } from 'node:path';
import { parsePostgresUrl } from './postgres-url.js';

/**
 * The line naming the database a command (or the server) works on, so an operator never changes one file while
 * believing they changed another. A file that had to be made is called out: an empty new database is the usual
 * sign of a wrong DATABASE_PATH. A PostgreSQL database is named by host and database only: its URL may hold a
 * password.
 */
export function databaseLine(database: { databasePath: string; databaseUrl?: string | undefined }, created: boolean): string {
  if (database.databaseUrl !== undefined) return `database: PostgreSQL at ${parsePostgresUrl(database.databaseUrl)?.name ?? 'DATABASE_URL'}`;
  return created ? `created a new database at ${database.databasePath}` : `database: ${database.databasePath}`;
}

/**
 * A warning for an SQLite file inside a node_modules folder, where the default DATABASE_PATH of a package installed
 * with npm lies: npm deletes the package's folder, and the database with it, when it reinstalls or upgrades the
 * package. Null when there is nothing to warn of.
 */
export function databaseWarning(database: { databasePath: string; databaseUrl?: string | undefined }): string | null {
  if (database.databaseUrl !== undefined || !database.databasePath.split(sep).includes('node_modules')) return null;
  return (
    `warning: the database ${database.databasePath} is inside node_modules, which npm deletes when it reinstalls ` +
    'or upgrades the package; set DATABASE_PATH to a file outside it'
  );
}
