import { newMigratedTestDatabase } from './shared-postgres.js';

/**
 * Which database a test server's file path stands for. In the postgres project (vitest.config.ts) a server keeps
 * its data in a PostgreSQL database; the CLI run "on its file" must then be given that database's URL too.
 */
const urls = new Map<string, string>();

export function rememberDatabaseUrl(dbPath: string, url: string): void {
  urls.set(dbPath, url);
}

/** The environment that points the CLI (or another server process) at the database behind `dbPath`. */
export function databaseEnv(dbPath: string): { DATABASE_PATH: string; DATABASE_URL?: string } {
  const url = urls.get(dbPath);
  return url === undefined ? { DATABASE_PATH: dbPath } : { DATABASE_PATH: dbPath, DATABASE_URL: url };
}

/**
 * The database a test's servers share, named by a file path: the file itself, or in the postgres project a fresh
 * PostgreSQL database remembered under that path. The environment to start servers (and the CLI) on it.
 */
export async function testDatabase(dbPath: string): Promise<{ DATABASE_PATH: string; DATABASE_URL?: string }> {
  if (process.env.SHORTLINKS_TEST_STORE === 'postgres') rememberDatabaseUrl(dbPath, await newMigratedTestDatabase());
  return databaseEnv(dbPath);
}
