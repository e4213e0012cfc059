import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster: one per test run, many databases in it. */
export interface PostgresCluster {
  /** The cluster's `postgres` database as its superuser: for making databases, not for a test's data. */
  url: string;
  /** A fresh empty database; its postgres:// URL. */
  newDatabase(): Promise<string>;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a cluster in a fresh folder under the OS temp folder, listening on 127.0.0.1 on a free port, trusting
 * every local connection, with fsync off: nothing in it needs to survive. Fails, never skips, when PostgreSQL is
 * not installed, so a missing server cannot pass for green tests.
 */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = await serverBinaries();
  const folder = await mkdtemp(join(tmpdir(), 'shortlinks-pg-'));
  const data = join(folder, 'data');
  const log = join(folder, 'server.log');
  const pgCtl = (args: string[]) => asServerUser(join(bin, 'pg_ctl'), [...args, '-w', '-s', '-D', data]);
  try {
    await ownByServerUser(folder);
    const initdb = ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'];
    await asServerUser(join(bin, 'initdb'), initdb);
    const port = await freePort();
    // Connections enough for every test worker's pools at once; no durability, the cluster is thrown away.
    const settings = {
      listen_addresses: "'127.0.0.1'",
      port: String(port),
      unix_socket_directories: `'${folder}'`,
      max_connections: '300',
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
    };
    const lines = Object.entries(settings).map(([name, value]) => `${name} = ${value}\n`);
    await appendFile(join(data, 'postgresql.conf'), lines.join(''));
    await pgCtl(['start', '-l', log]).catch(async (error) => {
      const serverLog = await readFile(log, 'utf8').catch(() => '');
      throw new Error(`${(error as Error).message}\n${serverLog}`);
    });
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const stop = async () => {
      await pgCtl(['stop', '-m', 'immediate']);
      await rm(folder, { recursive: true, force: true });
    };
    return { url, newDatabase: () => newDatabaseIn(url), stop };
  } catch (error) {
    // A server that started but was not ready in time would otherwise outlive its deleted folder.
    await pgCtl(['stop', '-m', 'immediate']).catch(() => {});
    await rm(folder, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL: ${(error as Error).message}`);
  }
}

/**
 * Makes a fresh database in the cluster at `clusterUrl` (a PostgresCluster's url) and returns its URL: empty, or a
 * copy of the database `template` (one no one is connected to, as markTemplate leaves it).
 */
export async function newDatabaseIn(clusterUrl: string, template?: string): Promise<string> {
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    // FILE_COPY copies the template's files (a checkpoint, cheap with fsync off): 0.1 s, against 0.2 to 0.5 s for
    // the default WAL_LOG, which writes every block to the WAL. PostgreSQL before 15 knows no STRATEGY and only copies.
    const copy = template === undefined ? '' : ` TEMPLATE ${template}${(await knowsStrategy(client)) ? ' STRATEGY FILE_COPY' : ''}`;
    await client.query(`CREATE DATABASE ${name}${copy}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function knowsStrategy(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ version: number }>(`SELECT current_setting('server_version_num')::int AS version`);
  return rows[0]!.version >= 150_000;
}

/**
 * Makes the database `name` a template that newDatabaseIn copies: no one may connect to it from now on, so no
 * connection can hold it open while a copy is made (CREATE DATABASE refuses then) or change what the copies start
 * from.
 */
export async function markTemplate(clusterUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  } finally {
    await client.end();
  }
}

/**
 * The folder of initdb, pg_ctl and postgres (pg_dump and pg_restore too): `pg_config --bindir`, else the newest of
 * Debian's /usr/lib/postgresql/<version>/bin. pg_config may come from libpq alone, so the server's presence is
 * checked.
 */
export async function serverBinaries(): Promise<string> {
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  const pgConfig = await run('pg_config', ['--bindir']).then(({ stdout }) => stdout.trim(), () => '');
  const candidates = [pgConfig, ...versions.map((version) => join(debian, version, 'bin'))];
  const found = candidates.find((dir) => dir && SERVER_BINARIES.every((name) => existsSync(join(dir, name))));
  if (found) return found;
  throw new Error(
    `PostgreSQL server binaries (${SERVER_BINARIES.join(', ')}) not found via \`pg_config --bindir\` or in ` +
      `${debian}/*/bin. Install them (Debian: apt-get install postgresql; .ci/run does).`,
  );
}

const SERVER_BINARIES = ['initdb', 'pg_ctl', 'postgres'];

/** PostgreSQL refuses to run as root; tests do run as root in CI, so the server runs as the postgres user then. */
function asServerUser(file: string, args: string[]) {
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
}

async function ownByServerUser(folder: string): Promise<void> {
  if (!isRoot()) return;
  const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  await chown(folder, await id('-u'), await id('-g'));
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** A port nothing listens on right now: the OS picks one, and it is released for the server to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
