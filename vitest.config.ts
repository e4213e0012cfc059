import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Every test runs once against the default store, SQLite. The end-to-end tests that reach the store only through
 * the service run a second time against PostgreSQL (`SHORTLINKS_TEST_STORE=postgres`: test/helpers/server.ts then
 * gives each server a fresh database in the run's throwaway cluster). Left out of that second run: the tests that
 * open the SQLite file themselves or start processes and the CLI on a file.
 */
const SQLITE_FILE_TESTS = [
  'test/e2e/backup.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/copy-database.test.ts',
  'test/e2e/crash.test.ts',
  'test/e2e/disk-full.test.ts',
  'test/e2e/hardening.test.ts',
  'test/e2e/oauth-client-names.test.ts',
  'test/e2e/oauth.test.ts',
  'test/e2e/oversized-bodies.test.ts',
  'test/e2e/public-url.test.ts',
  'test/e2e/set-password.test.ts',
  'test/e2e/web.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // A minute: on a loaded 2-core runner (four test files at once, each starting servers, CLIs, PostgreSQL and
    // chromium) set-ups that start processes took over 20 s, for this tree and the one before it alike; a test that
    // hangs still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Twice the CPUs of a small CI machine: most tests wait on the processes, sockets, browsers and PostgreSQL they
    // start rather than compute, and at the default (one worker per CPU) CPUs idled (2 CPUs: 345 s against 450).
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        // Their own runs, which take minutes: test/container builds and runs the image (`npm run test:container`);
        // test/package installs the packed package (`npm run test:package`).
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/container/**', 'test/package/**'] },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/e2e/**/*.test.ts'],
          exclude: SQLITE_FILE_TESTS,
          env: { SHORTLINKS_TEST_STORE: 'postgres' },
        },
      },
    ],
  },
});
