import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's own build, read once from node_modules. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule axe found broken, with the elements that break it, as a failing test prints it. */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations (minor and moderate ones
 * are advice, not failures). The pages' content security policy refuses inline scripts, so axe is not added as a
 * <script>: `page.evaluate` runs it through the DevTools protocol, which the policy does not govern, and the page
 * itself is tested exactly as it is served.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const { axe } = globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact ?? 'unknown', help: v.help, targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** How far the page is wider than its window, in CSS pixels: 0 when nothing scrolls sideways. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}
