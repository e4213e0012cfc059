import type { TestProject } from 'vitest/node';
import { ensureConformanceSuite } from './helpers/conformance.js';
import { startPostgres } from './helpers/postgres.js';
// For the type of provide('postgresUrl') only; at run time that module belongs to the test workers.
import type {} from './helpers/shared-postgres.js';

/**
 * Once per test run, before any test file: the conformance suite and the Node 22 it needs (see conformance.ts),
 * and one throwaway PostgreSQL cluster that every test file makes its own databases in (shared-postgres.ts).
 * Returns the teardown, which stops the cluster and deletes it.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureConformanceSuite();
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
