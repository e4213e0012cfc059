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
