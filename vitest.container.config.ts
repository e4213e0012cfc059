import { defineConfig } from 'vitest/config';

/**
 * `npm run test:container`: the image built and run for real with podman (test/container). Kept out of `npm test`:
 * a cold run assembles a base image and compiles better-sqlite3 inside a build, minutes rather than seconds.
 */
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    testTimeout: 120_000,
    // Assembling the base image and a cold build, on a busy two-core machine.
    hookTimeout: 20 * 60_000,
  },
});
