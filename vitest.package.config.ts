import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: the published package, packed and installed into an empty folder (test/package). Apart
 * from `npm test` because packing (which builds) and installing take a minute or two.
 */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
