import { inject } from 'vitest';
import { newDatabaseIn } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The url of the run's PostgreSQL cluster (test/global-setup/postgres.ts). Provided only in the projects that
     * start one; elsewhere inject() answers undefined, which the functions below check.
     */
    postgresUrl: string;
    /** The cluster's database holding every migration, which newMigratedTestDatabase copies (same projects). */
    postgresTemplate: string;
  }
}

/** True in the vitest projects that start a PostgreSQL cluster (store-postgres, e2e-postgres: vitest.config.ts). */
export function hasTestPostgres(): boolean {
  return (inject('postgresUrl') as string | undefined) !== undefined;
}

/** The url of the cluster's `postgres` database, as its superuser; fails in a project that started no cluster. */
export function testPostgresUrl(): string {
  const url: string | undefined = inject('postgresUrl');
  if (url === undefined) {
    throw new Error('This test needs PostgreSQL, which its vitest project does not start: see docs/contributing.md for where such a test goes.');
  }
  return url;
}

/**
 * A fresh empty database in the one cluster the project's global setup started; its postgres:// URL. For the tests
 * of migrating (from nothing, or between versions) and of what fills an empty database (copy-database, pg_restore).
 */
export function newTestDatabase(): Promise<string> {
  return newDatabaseIn(testPostgresUrl());
}

/**
 * A fresh database holding every migration and no rows, as the store leaves a new database on opening it: a copy of
 * the one the global setup migrated, for the tests that want a store, not its migrations: 0.1 s to copy, against
 * 0.7 to 1 s to make an empty one and migrate it.
 */
export function newMigratedTestDatabase(): Promise<string> {
  return newDatabaseIn(testPostgresUrl(), inject('postgresTemplate'));
}
