#!/usr/bin/env node
/**
 * `npm start`'s prestart and `npm test`'s pretest: compiles (`npm run build`) only when a source of the server is
 * newer than the build, so a built checkout starts listening at once (the compiler takes from ten seconds to half a
 * minute), CI's `npm test` does not compile again what `npm install` (its prepare) just compiled, and a checkout
 * whose sources changed, or that was never built, never runs an old build. Only dist/src is run (by the server, the
 * CLI and the tests of the build); the tests themselves are not compiled. Plain JavaScript: it runs before there is
 * a build.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** When the file was last changed (ms), or -1 when there is none. */
function changedAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The latest change of a TypeScript file under `dir`, or of a folder there: a source deleted or renamed changes only
 * its folder, and the build must then run again (and fail, should something still import it).
 */
function newestSource(dir) {
  let newest = changedAt(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, changedAt(path));
  }
  return newest;
}

// The compiler writes every output on each build, so the entry's time is the build's.
const builtAt = changedAt(join(root, 'dist', 'src', 'main.js'));
const sourcesAt = Math.max(newestSource(join(root, 'src')), changedAt(join(root, 'tsconfig.json')));
if (builtAt < sourcesAt) {
  process.stderr.write(builtAt < 0 ? 'Not built yet: compiling.\n' : 'Sources changed since the last build: compiling.\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
}
