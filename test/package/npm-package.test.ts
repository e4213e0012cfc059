import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { freePort } from '../helpers/server.js';

/**
 * The package as npm publishes it: `npm pack`, installed from the tarball into an empty folder, runs
 * `npx shortlinks serve` with nothing else set up, and serves (health, the CLI, a link made through the API and
 * followed). Slow (npm packs and installs; it would also compile better-sqlite3 from source where it cannot
 * download a binary, but is handed this checkout's build of it: localPrebuilds), so it has its own command,
 * `npm run test:package`, which CI runs after `npm test`.
 */
const run = promisify(execFile);
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';

let work: string;
let tarball: string;
let files: string[];
let folder: string;
let dns: DnsServer;

/** The environment of the installed commands: this one's, less anything that would point them at our database. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['DATABASE_PATH', 'DATABASE_URL', 'PUBLIC_URL', 'WORKERS', 'SHORTLINKS_TEST_STORE']) delete env[name];
  return env;
}

/**
 * A folder holding the better-sqlite3 this checkout built, packed as the prebuilt binary its install script
 * (prebuild-install) looks for in `npm_config_better_sqlite3_local_prebuilds` before it would download one or
 * compile: no binary can be downloaded here, and compiling it again took most of this file's two minutes. npm still
 * installs every dependency the package names and runs their install scripts; prebuild-install loads the binary to
 * check it. Another version than this checkout's has no binary here, and is compiled as before.
 */
async function localPrebuilds(): Promise<string> {
  const module = join(packageRoot, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  const prebuilds = join(work, 'prebuilds');
  mkdirSync(prebuilds);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(prebuilds, name), '-C', module, 'build/Release/better_sqlite3.node']);
  return prebuilds;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'shortlinks-package-'));
  // What `npm pack` would build first (its prepare script), built only when a source changed since the last build:
  // in CI, `npm install` has just built it (prepare runs there too), and building it again took half a minute.
  await run(process.execPath, [join(packageRoot, 'scripts', 'build-if-stale.mjs')], { cwd: packageRoot });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: packageRoot, maxBuffer: 16 * 1024 * 1024 });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info!.filename);
  files = info!.files.map((file) => file.path);
  folder = join(work, 'empty');
  // An empty folder with nothing but a package.json, as `npm init -y` makes.
  await run('mkdir', [folder]);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'someone-else', version: '1.0.0', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: folder,
    env: environment({ JOBS: 'max', npm_config_better_sqlite3_local_prebuilds: await localPrebuilds() }),
    maxBuffer: 16 * 1024 * 1024,
  });
  dns = await startDnsServer({}, { a: ['93.184.216.34'] });
}, 600_000);

afterAll(async () => {
  await dns?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds the compiled code, its data files and the README, and no sources, tests, databases or maps', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/src/cli/main.js', 'dist/src/main.js', 'data/favicon.ico', 'data/favicon.svg', 'data/shorteners.txt']));
    const outside = files.filter((path) => !path.startsWith('dist/src/') && !['package.json', 'README.md'].includes(path) && !path.startsWith('data/'));
    expect(outside).toEqual([]);
    expect(files.filter((path) => path.endsWith('.ts') || path.endsWith('.map') || path.endsWith('.db') || path.includes('test'))).toEqual([]);
  });

  it('runs `npx shortlinks serve` in the folder it was installed in, and serves', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = environment({ PORT: String(port), HOST: '127.0.0.1', DNS_SERVERS: dns.servers.join(',') });
    const shortlinks = async (...args: string[]) => JSON.parse((await run('npx', ['shortlinks', ...args, '--json'], { cwd: folder, env })).stdout);

    // Its own process group: npx does not pass a signal on, so SIGTERM goes to the group.
    const server = spawn('npx', ['shortlinks', 'serve'], { cwd: folder, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ended = new Promise<void>((resolve) => server.once('close', () => resolve()));
    try {
      await until(() => output.includes('database at'), 30_000);
      // With DATABASE_PATH unset, the database is made in the installation, as the README says, with a warning.
      expect(output).toContain(`shortlinks serves http://localhost:${port} (listening on 127.0.0.1:${port})`);
      const database = join(folder, 'node_modules', 'shortlinks', 'data', 'shortlinks.db');
      expect(output).toContain(`created a new database at ${database}`);
      await until(() => output.includes('warning:'), 5_000);
      expect(output).toContain(`warning: the database ${database} is inside node_modules, which npm deletes when it reinstalls or upgrades the package`);

      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });

      const person = await shortlinks('person', 'add', '--email', 'someone@example.com', '--agree-terms');
      const team = await shortlinks('team', 'add', '--name', 'Installed', '--owner', person.email);
      const { token } = await shortlinks('token', 'create', '--email', person.email, '--team', team.id);
      const made = await fetch(`${url}/v1/createLink`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ team: team.id, destination: 'https://example.com/installed' }),
      });
      expect(made.status).toBe(200);
      const link = (await made.json()) as { code: string; destination: string };
      expect(link.destination).toBe('https://example.com/installed');
      const visit = await fetch(`${url}/${link.code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
      expect(visit.status).toBe(302);
      expect(visit.headers.get('location')).toBe('https://example.com/installed');
      expect((await fetch(`${url}/favicon.svg`)).status).toBe(200);
    } finally {
      stop(server);
      await ended;
    }
    expect(output).toContain('SIGTERM: closing');
  });
});

function stop(server: ChildProcess): void {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(done()).toBe(true);
}
