/**
 * `npm start` on a checkout that is already built starts the server at once: its prestart
 * (scripts/build-if-stale.mjs) compiles only when a source is newer than the build (the compiler alone takes from
 * ten seconds to half a minute). Run on a copy of the checkout
 * (sources, build, package.json; node_modules linked), so that nothing here builds or times the working tree.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * What npm and the prestart may add to the server's start: about half a second on an idle machine, up to two on one
 * as busy as a test run makes it; a compiler run would add ten seconds or more.
 */
const ADDED_WITHIN_MS = 5_000;

let copy: string;
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'shortlinks-npm-start-'));
  for (const path of ['package.json', 'tsconfig.json', 'scripts/build-if-stale.mjs', 'src', 'data/favicon.ico', 'data/favicon.svg', 'data/shorteners.txt']) {
    cpSync(join(ROOT, path), join(copy, path), { recursive: true, filter: (from) => !from.endsWith('.db') });
  }
  // The build, copied after the sources, so newer than all of them: a checkout as `npm run build` leaves it.
  cpSync(join(ROOT, 'dist/src'), join(copy, 'dist/src'), { recursive: true });
  const now = new Date();
  utimesSync(join(copy, 'dist/src/main.js'), now, now);
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** Runs the prestart alone with a stand-in `npm` first on PATH that only notes it was asked to build. */
function prestartWithStandIn(): string | null {
  const bin = join(copy, 'stand-in-bin');
  const noted = join(copy, 'npm-was-run');
  rmSync(noted, { force: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$@" > '${noted}'\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  const run = spawnSync(process.execPath, [join(copy, 'scripts/build-if-stale.mjs')], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  expect(run.status, run.stderr.toString()).toBe(0);
  return existsSync(noted) ? readFileSync(noted, 'utf8').trim() : null;
}

/**
 * Starts `command` in the copy on a new SQLite file, and resolves with the milliseconds until it logs that it
 * listens, and what it wrote; stops it (and what it started: its own process group) then.
 */
async function timeToListen(command: string, args: string[]): Promise<{ ms: number; output: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: join(copy, `${port}.db`), LOG_LEVEL: 'info' };
  delete env.PUBLIC_URL;
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(command, args, { cwd: copy, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await expect.poll(() => output, { timeout: 60_000, interval: 20 }).toContain(`(listening on 127.0.0.1:${port})`);
    return { ms: performance.now() - started, output };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

describe('npm start', () => {
  // The server's own start (loading its modules, opening the database) takes a second or two on an idle machine and
  // several on one as busy as a test run makes it, so what npm start adds to it is what is measured: the quicker of
  // two starts each way, taken in turn, as one start can meet the busiest moment of a test run (it did: 4.6 s direct,
  // 9.7 through npm, where npm and the prestart take half a second).
  it(`on a built checkout, compiles nothing and adds under ${ADDED_WITHIN_MS / 1000} seconds to the server's own start`, async () => {
    const direct: number[] = [];
    const npm: number[] = [];
    for (let round = 0; round < 2; round++) {
      direct.push((await timeToListen(process.execPath, ['dist/src/main.js'])).ms);
      const started = await timeToListen('npm', ['start']);
      expect(started.output).not.toContain('compiling');
      expect(started.output).not.toContain('tsc -p');
      npm.push(started.ms);
    }
    const [npmMs, directMs] = [Math.min(...npm), Math.min(...direct)];
    expect(npmMs - directMs, `npm start ${npm.map(Math.round).join(', ')} ms, node dist/src/main.js ${direct.map(Math.round).join(', ')} ms`).toBeLessThan(ADDED_WITHIN_MS);
  }, 150_000);

  it('compiles when a source is newer than the build, or when there is no build; not otherwise', () => {
    expect(prestartWithStandIn()).toBeNull();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(copy, 'src/main.ts'), later, later);
    expect(prestartWithStandIn()).toBe('run build');
    utimesSync(join(copy, 'dist/src/main.js'), later, later);
    expect(prestartWithStandIn()).toBeNull();
    rmSync(join(copy, 'dist/src/main.js'));
    expect(prestartWithStandIn()).toBe('run build');
  });

  it('compiles when a source was deleted or renamed since the build, which changes only its folder', () => {
    const src = join(copy, 'src');
    const past = new Date(Date.now() - 3_600_000);
    for (const path of [src, ...readdirSync(src, { recursive: true, encoding: 'utf8' }).map((entry) => join(src, entry))]) utimesSync(path, past, past);
    cpSync(join(ROOT, 'dist/src/main.js'), join(copy, 'dist/src/main.js'));
    expect(prestartWithStandIn()).toBeNull();
    rmSync(join(src, 'cli/settings.ts'));
    expect(prestartWithStandIn()).toBe('run build');
  });
});
