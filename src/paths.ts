/**
 * Where the project's own files live. The code runs from `src/` (vitest, tsx) and from `dist/src/` (compiled), and
 * may be installed under `node_modules/shortlinks`, so no fixed number of `..` steps is right everywhere: we walk up
 * to the package.json that names this project instead.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'shortlinks';

/** True when `file` is a readable package.json whose name is this project's. */
function isOurPackageJson(file: string): boolean {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    // Checking the name (not just existence) skips nested package.json files such as a `{"type":"module"}` marker.
    return typeof parsed === 'object' && parsed !== null && (parsed as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false; // missing or unreadable: keep walking up
  }
}

/** Walks up from `start` to the first folder holding this project's package.json. */
function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (isOurPackageJson(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json named "${PACKAGE_NAME}" found above ${start}.`);
    dir = parent;
  }
}

/** The folder holding this project's package.json, from `src/` and from `dist/src/` alike. */
export const packageRoot: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** A path under `<packageRoot>/data`, where shipped data files live: `dataPath('shorteners.txt')`. */
export function dataPath(...parts: string[]): string {
  return join(packageRoot, 'data', ...parts);
}
