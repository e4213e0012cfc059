import { ensureConformanceSuite } from './helpers/conformance.js';

/** Once per test run, before any test file: the conformance suite and the Node 22 it needs (see conformance.ts). */
export function setup(): void {
  ensureConformanceSuite();
}
