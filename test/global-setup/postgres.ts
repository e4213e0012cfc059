import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/store/postgres/database.js';
import { migrations } from '../../src/store/postgres/migrations.js';
import { markTemplate, newDatabaseIn, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
// For the types of provide('postgresUrl') and provide('postgresTemplate') only; at run time that module belongs to
// the test workers.
import type {} from '../helpers/shared-postgres.js';

/** The run's cluster, and the name of its database holding every migration, which migrated databases copy. */
interface Started {
  cluster: PostgresCluster;
  template: string;
}

/**
 * The run's one cluster and how many projects still use it. Kept on globalThis, not in this module: vitest loads a
 * global setup file anew for each project, but runs every project's setup in its one main process.
 */
interface SharedCluster {
  started: Promise<Started>;
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
  const shared = (holder[SHARED] ??= { started: start(), users: 0 });
  shared.users += 1;
  const { cluster, template } = await shared.started;
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresTemplate', template);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await (await shared.started).cluster.stop();
  };
}

/**
 * Starts the cluster and migrates one database there once, as the store would (its own migrate), for the tests
 * that only want a store to work on (newMigratedTestDatabase): copying it takes 0.1 s, making and migrating each
 * database 0.7 to 1 s.
 */
async function start(): Promise<Started> {
  const cluster = await startPostgres();
  try {
    const url = await newDatabaseIn(cluster.url);
    await migrate(url, migrations);
    const template = new URL(url).pathname.slice(1);
    await markTemplate(cluster.url, template);
    return { cluster, template };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
