import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { startDnsStandIn } from '../dns-stand-in.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { ManySeeded } from '../seed-many.js';
import { createSampleLink, seedActor, seedLinks, seedLinksPostgres, seedPeople } from '../seed.js';
import { announce, profileOnRequest } from './child.js';

/**
 * Our server on a fresh SQLite file in a temp folder: a person, team and token, limits raised, one link to read;
 * with `SEED_LINKS=n`, n more links in the team first (for listLinks); with `SEED_REDIRECT_LINKS=n`, n more links
 * written by a separate process (bench/seed-many.ts, so the seed's memory never counts in this process's RSS),
 * which leaves a random sample of `SEED_REDIRECT_SAMPLE` of their codes in a file named in the ready message
 * (`SEED_REDIRECT_SEARCH_INDEX`: bulk, triggers or none; see seed-many.ts); with `SEED_PEOPLE=n`, n more members of
 * the team, each with a token, named in the ready message. With `BENCH_PROFILE_ON_REQUEST=1`, CPU profiles of the
 * stretches the parent asks for.
 */
const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-'));
const dns = await startDnsStandIn();
// BENCH_DATABASE_URL: the same server on a PostgreSQL database (an empty one; the bench's own cluster).
const databaseUrl = process.env.BENCH_DATABASE_URL;
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  PUBLIC_URL: 'http://127.0.0.1',
  DATABASE_PATH: join(dir, 'bench.db'),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  DNS_SERVERS: dns.servers.join(','),
  // Silent unless asked (run.ts): what logging costs is bench/observability.ts's to measure.
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  // Metrics on when asked (the redirect section measures the service as it runs, with /metrics served).
  ...(process.env.METRICS_PORT ? { METRICS_PORT: process.env.METRICS_PORT } : {}),
  // Click analytics as the environment says (on, the service's default, unless ANALYTICS=off).
  ...(process.env.ANALYTICS ? { ANALYTICS: process.env.ANALYTICS } : {}),
});
// Opened here for the seeding; checkpointed on its own thread, as the service's store is (store/open.ts `serving`).
const store = databaseUrl ? await openPostgresStore(databaseUrl) : openSqliteStore(config.databasePath, undefined, { checkpointThread: true });
const now = new Date();
const actor = await seedActor(store, now);
const seedCount = Number(process.env.SEED_LINKS ?? 0);
const seedStarted = performance.now();
if (seedCount > 0) {
  if (databaseUrl) await seedLinksPostgres(databaseUrl, actor, seedCount);
  else seedLinks(config.databasePath, actor, seedCount);
}
const seedMs = performance.now() - seedStarted;

const manyCount = Number(process.env.SEED_REDIRECT_LINKS ?? 0);
let many: (ManySeeded & { codesFile: string }) | undefined;
if (manyCount > 0) {
  const codesFile = join(dir, 'codes.txt');
  const resultFile = join(dir, 'seed.json');
  const seeder = spawnSync(process.execPath, [fileURLToPath(new URL('../seed-many.js', import.meta.url))], {
    stdio: 'inherit',
    env: {
      ...process.env,
      SEED_DB: config.databasePath,
      SEED_TEAM: actor.teamId,
      SEED_COUNT: String(manyCount),
      SEED_MODE: process.env.SEED_REDIRECT_SEARCH_INDEX ?? 'bulk',
      SEED_SAMPLE: process.env.SEED_REDIRECT_SAMPLE ?? '10000',
      SEED_CODES: codesFile,
      SEED_RESULT: resultFile,
    },
  });
  if (seeder.status !== 0) throw new Error(`seed-many exited with ${seeder.status ?? seeder.signal}`);
  many = { ...(JSON.parse(readFileSync(resultFile, 'utf8')) as ManySeeded), codesFile };
}
const link = await createSampleLink(store, actor, new Date());
const tokens = await seedPeople(store, actor, Number(process.env.SEED_PEOPLE ?? 0), new Date());

if (process.env.BENCH_PROFILE_ON_REQUEST) await profileOnRequest();
const app = await createApp(config, { store });
const { port } = await app.listen();
announce(
  { type: 'ready', url: `http://127.0.0.1:${port}`, token: actor.token, team: actor.teamId, code: link.code, seedMs, many, tokens },
  async () => {
    await app.close();
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  },
);
