import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
// For the type of provide('postgresUrl') only; at run time that module belongs to the test workers.
import type {} from '../helpers/shared-postgres.js';

/**
 * The run's one cluster and how many projects still use it. Kept on globalThis, not in this module: vitest loads a
 * global setup file anew for each project, but runs every project's setup in its one main process.
 */
interface SharedCluster {
  cluster: Promise<PostgresCluster>;
  users: number;
}

const SHARED = Symbol.for('shortlinks.test-postgres');
const holder = globalThis as typeof globalThis & { [SHARED]?: SharedCluster };

/**
 * Once per run of a project that uses PostgreSQL (vitest.config.ts), before its first test file: the throwaway
 * cluster that every test file of the project makes its own databases in (shared-postgres.ts). The PostgreSQL
 * projects of one run share one cluster (each test's database is its own, so they cannot meet), which saves
 * starting a second. Returns the teardown; the last project's stops the cluster and deletes it.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (holder[SHARED] ??= { cluster: startPostgres(), users: 0 });
  shared.users += 1;
  project.provide('postgresUrl', (await shared.cluster).url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await (await shared.cluster).stop();
  };
}
