import { sep } from 'node:path';

/**
 * A database as the start-up log and the CLI name it (store/open.ts describeDatabase): nothing secret. An SQLite
 * file by its path, and whether it had to be made; a PostgreSQL database by host and database only.
 */
export type DatabaseDescription = { kind: 'sqlite'; path: string; created: boolean } | { kind: 'postgresql'; name: string };

/**
 * The line naming the database a command (or the server) works on, so an operator never changes one file while
 * believing they changed another. A file that had to be made is called out: an empty new database is the usual
 * sign of a wrong DATABASE_PATH.
 */
export function databaseLine(database: DatabaseDescription): string {
  if (database.kind === 'postgresql') return `database: PostgreSQL at ${database.name}`;
  return database.created ? `created a new database at ${database.path}` : `database: ${database.path}`;
}

/**
 * A warning for an SQLite file inside a node_modules folder, where the default DATABASE_PATH of a package installed
 * with npm lies: npm deletes the package's folder, and the database with it, when it reinstalls or upgrades the
 * package. Null when there is nothing to warn of.
 */
export function databaseWarning(database: DatabaseDescription): string | null {
  if (database.kind !== 'sqlite' || !database.path.split(sep).includes('node_modules')) return null;
  return (
    `warning: the database ${database.path} is inside node_modules, which npm deletes when it reinstalls ` +
    'or upgrades the package; set DATABASE_PATH to a file outside it'
  );
}
