/**
 * The image for real (`npm run test:container`): built with podman from the Dockerfile on a stand-in for its base
 * image (Debian 12 and Node 24 like node:24-bookworm-slim, assembled by assemble-base.sh once and then kept in
 * podman's image store), run with the database on a named volume and the port published on loopback. A link made
 * through the API redirects, the service runs as a user other than root, and a new container on the same volume
 * still has the link. Needs root, podman and debootstrap; on machines like CI's also CONTAINERS_CONF (.ci/run).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { startDnsServer, ZONE, type DnsServer } from '../helpers/dns-server.js';
import { command, podman, succeeds } from './podman.js';

const BASE_IMAGE = 'localhost/shortlinks-test-base:bookworm-node24';
/** A fixed tag, so the next run's build finds this one's layers; the containers run the id this build made. */
const IMAGE = 'localhost/shortlinks:test';
/** This run's container and volume: runs on the same machine (other work trees) keep out of each other's way. */
const NAME = `shortlinks-test-${process.pid}`;
/** As behind a reverse proxy: links and the CLI's set-password links use it, whatever port podman picked. */
const PUBLIC_URL = 'https://links.example.test';
/** Resolved by the DNS stand-in to a public address, as the destination checks require. */
const DESTINATION = `https://public.${ZONE}/launch`;

let imageId: string;
let dns: DnsServer;
let dnsServer: string;
/** The running container's address on loopback. */
let url: string;
let token: string;
let link: { code: string } & Record<string, unknown>;

beforeAll(async () => {
  if (!(await succeeds('image', 'exists', BASE_IMAGE))) {
    const started = Date.now();
    await command(fileURLToPath(new URL('./assemble-base.sh', import.meta.url)), [BASE_IMAGE]);
    console.log(`assembled ${BASE_IMAGE} in ${secondsSince(started)}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-image-'));
  try {
    const started = Date.now();
    // Docker's format, not OCI's: OCI image configs have no HEALTHCHECK, and podman would drop it.
    const iidfile = join(dir, 'iid');
    await podman('build', '--format', 'docker', '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, '--iidfile', iidfile, '--tag', IMAGE, packageRoot);
    imageId = readFileSync(iidfile, 'utf8').trim();
    console.log(`built ${IMAGE} in ${secondsSince(started)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The container reaches the host at its network's gateway; the stand-in listens on every interface to be there.
  dns = await startDnsServer(undefined, 'nxdomain', '0.0.0.0');
  const gateway = await podman('network', 'inspect', 'podman', '--format', '{{range .Subnets}}{{.Gateway}}{{end}}');
  dnsServer = `${gateway}:${dns.port}`;
  await podman('volume', 'create', NAME);
});

afterAll(async () => {
  await podman('rm', '--force', '--ignore', NAME).catch(() => undefined);
  await podman('volume', 'rm', '--force', NAME).catch(() => undefined);
  await dns?.close();
});

it('serves as a user other than root, with its database on the volume', async () => {
  url = await start();
  expect(await podman('exec', NAME, 'id', '-u')).not.toBe('0');
  // The server itself, not only what exec runs: PID 1's real, effective, saved and file-system user ids.
  const uids = /^Uid:\s+(.+)$/m.exec(await podman('exec', NAME, 'cat', '/proc/1/status'))?.[1]?.split(/\s+/);
  expect(uids).toHaveLength(4);
  expect(uids).not.toContain('0');
  expect((await podman('exec', NAME, 'ls', '/data')).split('\n')).toContain('shortlinks.db');
});

it('makes a link through the API and redirects to it', async () => {
  const person = await cli('person', 'add', '--email', 'ada@example.com', '--agree-terms');
  // exec runs with the container's environment, so the CLI knows PUBLIC_URL and the database too.
  expect(person.setPasswordUrl).toMatch(`${PUBLIC_URL}/set-password/`);
  const team = await cli('team', 'add', '--name', "Ada's team", '--owner', 'ada@example.com');
  const created = await cli('token', 'create', '--email', 'ada@example.com', '--team', String(team.id));
  token = String(created.token);
  const made = await api('createLink', { team: team.id, destination: DESTINATION, name: 'launch' });
  expect(made.status).toBe(200);
  link = made.body as typeof link;
  expect(link).toMatchObject({ destination: DESTINATION, name: 'launch', state: 'active' });
  await expectRedirect(`/${link.code}`);
  await expectRedirect('/launch');
});

it('still has the link in a new container on the same volume', async () => {
  await podman('stop', NAME);
  // SIGTERM reached node as PID 1, which closed the database and exited 0 (not killed after the stop timeout).
  expect(await podman('inspect', '--format', '{{.State.ExitCode}}', NAME)).toBe('0');
  await podman('rm', NAME);
  url = await start();
  await expectRedirect(`/${link.code}`);
  await expectRedirect('/launch');
  expect((await api('getLink', { code: link.code })).body).toEqual(link);
});

it("reports health with the image's HEALTHCHECK: node's fetch, no curl", async () => {
  const test = JSON.parse(await podman('image', 'inspect', '--format', '{{json .Config.Healthcheck.Test}}', imageId)) as string[];
  expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
  const script = test[3] ?? '';
  expect(script).toContain('/healthz');
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  expect(await succeeds('healthcheck', 'run', NAME)).toBe(true);
  // Pointed at a path that is no health check (a link that does not exist: 404), the same script fails.
  expect(await succeeds('exec', NAME, 'node', '-e', script.replace('/healthz', '/no-such-link'))).toBe(false);
});

/** Starts a container on the volume; resolves to its published address once it serves. */
async function start(): Promise<string> {
  await podman(
    'run', '--detach', '--name', NAME, '--network', 'podman', '--volume', `${NAME}:/data`, '--publish', '127.0.0.1::3000',
    '--env', `PUBLIC_URL=${PUBLIC_URL}`, '--env', `DNS_SERVERS=${dnsServer}`, imageId,
  );
  const address = `http://${await podman('port', NAME, '3000/tcp')}`;
  await untilServing(address);
  return address;
}

/** Waits for `/healthz`, as the HEALTHCHECK does. */
async function untilServing(address: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${address}/healthz`).then((res) => res.ok, () => false))) {
    if (Date.now() > deadline) throw new Error(`not serving after 60 s:\n${await podman('logs', NAME)}`);
    await sleep(250);
  }
}

/** The operator CLI inside the container, as the README shows it (`docker compose exec shortlinks shortlinks ...`). */
async function cli(...args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(await podman('exec', NAME, 'shortlinks', ...args, '--json')) as Record<string, unknown>;
}

async function api(operation: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/v1/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function expectRedirect(path: string): Promise<void> {
  const res = await fetch(`${url}${path}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe(DESTINATION);
}

function secondsSince(started: number): string {
  return `${Math.round((Date.now() - started) / 1000)} s`;
}
