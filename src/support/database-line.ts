/**
 * The line naming the database a command (or the server) works on, so an operator never changes one file while
 * believing they changed another. A file that had to be made is called out: an empty new database is the usual
 * sign of a wrong DATABASE_PATH.
 */
export function databaseLine(path: string, created: boolean): string {
  return created ? `created a new database at ${path}` : `database: ${path}`;
}
