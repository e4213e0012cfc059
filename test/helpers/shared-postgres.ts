import { inject } from 'vitest';
import { newDatabaseIn } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The url of the run's PostgreSQL cluster (global-setup.ts). */
    postgresUrl: string;
  }
}

/** A fresh empty database in the one cluster global-setup.ts started for this test run; its postgres:// URL. */
export function newTestDatabase(): Promise<string> {
  return newDatabaseIn(inject('postgresUrl'));
}
