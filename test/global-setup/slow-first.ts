import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took longest in a clean-clone CI run (`bash .ci/run`, 2 CPUs), slowest first, each as
 * `project:path`; each over 40 s, measured on 2026-11-28. A file missing here only starts in the usual order.
 */
const SLOWEST = [
  'browser:test/browser/accessibility.test.ts', // 314 s
  'store-postgres:test/store/postgres-contract.test.ts', // 195 s
  'browser:test/browser/people-actions.test.ts', // 78 s
  'store-postgres:test/e2e/copy-database.test.ts', // 77 s
  'browser:test/browser/mcp-apps.test.ts', // 75 s
  'e2e-postgres:test/e2e/shutdown.test.ts', // 74 s
  'e2e-postgres:test/e2e/workers.test.ts', // 68 s
  'conformance:test/conformance/mcp-server.test.ts', // 59 s
  'store-postgres:test/rate-limits/sliding-window.test.ts', // 54 s
  'e2e-postgres:test/e2e/balanced.test.ts', // 53 s
  'e2e-sqlite:test/e2e/workers.test.ts', // 51 s
  'browser:test/browser/link-actions.test.ts', // 46 s
];
const rank = new Map(SLOWEST.map((key, index) => [key, index]));

/**
 * Starts the slowest files first, whatever their project. vitest's own order runs the projects one after another
 * by name and, on a clean clone (no timings cached), the larger files of each first: the PostgreSQL store's two
 * slowest files (159 s together) started last and ran alone at the end, while the run's 2,720 s of tests over 4
 * workers need about 680 s. The rest keep vitest's order.
 */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const usual = await super.sort(files);
    const rankOf = (spec: TestSpecification) =>
      rank.get(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`) ?? SLOWEST.length;
    // Array.prototype.sort is stable: files of equal rank keep vitest's order.
    return usual.sort((a, b) => rankOf(a) - rankOf(b));
  }
}
