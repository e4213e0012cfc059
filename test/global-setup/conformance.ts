import { ensureConformanceSuite } from '../helpers/conformance.js';

/**
 * Once per run of the conformance project (vitest.config.ts), before its first test file: the conformance suite
 * and the Node 22 it needs, downloaded the first time (see conformance.ts).
 */
export function setup(): void {
  ensureConformanceSuite();
}
