import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: the published package, packed and installed into an empty folder (test/package). Apart
 * from `npm test` because installing compiles better-sqlite3, which takes a minute or two.
 */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
