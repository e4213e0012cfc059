import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirst } from './test/global-setup/slow-first.js';

/**
 * The test projects, by what a test needs (docs/contributing.md says which to run when):
 * - fast: in process, on SQLite, from src/ as it is (no build): the domain, the tools, the SQLite store and its
 *   contract, views, units of MCP, HTTP and the rest. No PostgreSQL, no process of ours, no browser, no download.
 * - store-postgres: the store (its contract, the PostgreSQL adapter's own tests, the limiters) on PostgreSQL.
 * - e2e-sqlite: the service end to end on SQLite, and what needs the build: servers, CLIs and processes.
 * - e2e-postgres: the same end-to-end tests again on PostgreSQL, less those that open the SQLite file themselves.
 * - browser: the web app in chromium. conformance: the MCP conformance suite and other clients against the server.
 * Each project starts only what it needs (its globalSetup): PostgreSQL for the two PostgreSQL projects (one
 * cluster, which they share), the conformance suite's download for conformance. `npm test` runs them all;
 * `npm run test:fast` the first.
 */

/**
 * Left out of the PostgreSQL run of test/e2e: the tests that open the SQLite file themselves or start processes
 * and the CLI on a file.
 */
const SQLITE_FILE_TESTS = [
  'test/e2e/backup.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/copy-database.test.ts',
  'test/e2e/crash.test.ts',
  'test/e2e/disk-full.test.ts',
  'test/e2e/hardening.test.ts',
  'test/e2e/link-options-processes.test.ts',
  'test/e2e/npm-start.test.ts',
  'test/e2e/oauth-client-names.test.ts',
  'test/e2e/oauth.test.ts',
  'test/e2e/oversized-bodies.test.ts',
  'test/e2e/public-url.test.ts',
  'test/e2e/separate-processes.test.ts',
  'test/e2e/set-password.test.ts',
  'test/e2e/web.test.ts',
];

/** A file named postgres-*.test.ts is about the PostgreSQL store and needs a cluster, wherever it lives. */
const POSTGRES_TESTS = 'test/**/postgres-*.test.ts';

/**
 * Run in fast and again in store-postgres, where they reach PostgreSQL: the limiters' tests (in memory and SQLite
 * in fast, PostgreSQL in store-postgres: limiters.ts), and the tools through MCP in process (mcp-in-memory.ts).
 */
const ON_BOTH_STORES = [
  'test/mcp/tool-calls.test.ts',
  'test/mcp/no-team.test.ts',
  'test/rate-limits/document-fetches.test.ts',
  'test/rate-limits/sliding-window.test.ts',
  'test/rate-limits/slowdown.test.ts',
];

/** Outside test/e2e, yet running the compiled service (dist/) in processes or workers: they need the build. */
const BUILT_TESTS = ['test/rate-limits/sqlite-shared.test.ts', 'test/store/leases.test.ts', 'test/store/open-at-once.test.ts'];

/**
 * Copies a SQLite file into PostgreSQL with the built CLI: the PostgreSQL store's, not the SQLite end to end's.
 * Still listed in SQLITE_FILE_TESTS, as it is never run against the PostgreSQL test server.
 */
const COPY_TO_POSTGRES = 'test/e2e/copy-database.test.ts';

/**
 * The other projects' folders and files, and two runs of their own, which take minutes: test/container builds and
 * runs the image (`npm run test:container`), test/package installs the packed package (`npm run test:package`).
 * Everything else is fast, so a new unit test lands there by default.
 */
const NOT_FAST = ['test/e2e/**', 'test/browser/**', 'test/conformance/**', POSTGRES_TESTS, ...BUILT_TESTS, 'test/container/**', 'test/package/**'];

export default defineConfig({
  test: {
    // A minute: on a loaded 2-core runner (four test files at once, each starting servers, CLIs, PostgreSQL and
    // chromium) set-ups that start processes took over 20 s, for this tree and the one before it alike; a test that
    // hangs still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Twice the CPUs of a small CI machine: most tests wait on the processes, sockets, browsers and PostgreSQL they
    // start rather than compute, and at the default (one worker per CPU) CPUs idled (2 CPUs: 345 s against 450).
    maxWorkers: 4,
    // The slowest files first, across projects (test/global-setup/slow-first.ts).
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...NOT_FAST],
          // One module graph per worker, not per file: importing src/ anew for each of its 75 files took most of
          // its time (the project's CPU time: 121 s isolated, 55 s shared, on 2 loaded CPUs). Its tests keep no
          // state in modules that another file could see; they pass either way (`--isolate` runs them isolated).
          // The same holds, and is set, for the end-to-end and PostgreSQL projects (e2e-sqlite: import summed over
          // files 2,498 s isolated, 132 s shared; CPU 9.5 min against 6.0; each file re-imported src/ and the SDK).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'store-postgres',
          isolate: false,
          include: [POSTGRES_TESTS, ...ON_BOTH_STORES, COPY_TO_POSTGRES],
          globalSetup: ['test/global-setup/postgres.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-sqlite',
          include: ['test/e2e/**/*.test.ts', ...BUILT_TESTS],
          exclude: [...configDefaults.exclude, COPY_TO_POSTGRES],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-postgres',
          isolate: false,
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SQLITE_FILE_TESTS],
          // test/helpers/server.ts then gives each server a fresh database in the run's cluster.
          env: { SHORTLINKS_TEST_STORE: 'postgres' },
          globalSetup: ['test/global-setup/postgres.ts'],
        },
      },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
      { extends: true, test: { name: 'conformance', include: ['test/conformance/**/*.test.ts'], globalSetup: ['test/global-setup/conformance.ts'] } },
    ],
  },
});
