import type { TestProject } from 'vitest/node';
import { startPostgres } from '../helpers/postgres.js';
// For the type of provide('postgresUrl') only; at run time that module belongs to the test workers.
import type {} from '../helpers/shared-postgres.js';

/**
 * Once per run of a project that uses PostgreSQL (vitest.config.ts), before its first test file: one throwaway
 * cluster that every test file of the project makes its own databases in (shared-postgres.ts). Returns the
 * teardown, which stops the cluster and deletes it.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
