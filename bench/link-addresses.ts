import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashPassword } from '../src/support/password.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { cpuMicros, getOnce, int, loadGet, type GetLoadResult } from './measure.js';
import { startDnsStandIn } from './dns-stand-in.js';
import { pacedGet } from './paced.js';
import { pairedRounds } from './paired.js';
import { ANALYTICS_WRITTEN_MS, seedDatabase, startService, type Service } from './workers.js';

/**
 * BENCH_ONLY=addresses (issues 24 and 25). One server (`npm start`'s entry, one process, LOG_LEVEL=silent) on a
 * SQLite file of BENCH_ADDRESSES_LINKS links (5,000) of one team, whose verified domain is go.bench.example:
 * - a team's domain against PUBLIC_URL: paired rounds (bench/paired.ts) of GETs of random codes with the Host of
 *   PUBLIC_URL and with the domain's (target: within noise);
 * - links with options against a plain link: a hot link each, plain against one with a password (the visit
 *   carrying its permission cookie), a click cap, an end date, and forwardQuery with a campaign's query string;
 * - each kind's p99 at a steady BENCH_ADDRESSES_RATE (2,000 req/s, sent evenly: bench/paced.ts; what the target
 *   speaks of, not the queue 50 connections build at saturation; target p99 < 10 ms), once the server has written
 *   what the saturated rounds counted (ANALYTICS_WRITTEN_MS).
 * The figure is the server's own CPU per answer; autocannon runs in the bench's process.
 */
const LINKS = Number(process.env.BENCH_ADDRESSES_LINKS ?? 5_000);
const RATE = Number(process.env.BENCH_ADDRESSES_RATE ?? 2_000);
const STEADY_SECONDS = 8;
const PUBLIC_URL = 'https://s.example';
const PUBLIC_HOST = 's.example';
const DOMAIN = 'go.bench.example';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PASSWORD = 'correct horse battery';

/** One kind of visit: the path of each request and its headers. */
interface Visit {
  path: () => string;
  headers: Record<string, string>;
}

/** The hot links with options, made through the store on the seeded file before the server starts. */
async function optionedLinks(dbPath: string, teamId: string): Promise<Record<string, string>> {
  const store = openSqliteStore(dbPath);
  try {
    const team = (await store.teams.get(teamId))!;
    const now = new Date();
    const limits = { ...(await store.settings.limits()), maxLinksPerTeam: 1e9, perHour: 1e9, perDay: 1e9, firstWeekPerDay: 1e9 };
    const make = async (options: object) =>
      (await store.links.create({ teamId, teamCreatedAt: new Date(team.createdAt), destination: 'https://example.com/landing?ref=bench', name: null, note: null, ...options }, limits, now)).code;
    await store.domains.add({ teamId, domain: DOMAIN, token: 'bench', proof: 'operator' }, 'operator', 5, now);
    return {
      plain: await make({}),
      password: await make({ passwordHash: await hashPassword(PASSWORD) }),
      cap: await make({ maxClicks: 10_000_000 }),
      expiry: await make({ expiresAt: new Date(now.getTime() + 5 * 365 * 86_400_000).toISOString() }),
      forwardQuery: await make({ forwardQuery: true }),
    };
  } finally {
    await store.close();
  }
}

/** The permission a right password earns (link-password.ts): the cookie a visit carries from then on. */
async function permission(url: string, code: string): Promise<string> {
  const res = await fetch(`${url}/${code}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { host: PUBLIC_HOST, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
    body: new URLSearchParams({ password: PASSWORD }).toString(),
  });
  const cookie = res.headers.get('set-cookie');
  if (res.status !== 303 || !cookie) throw new Error(`addresses: the password of /${code} answered ${res.status}`);
  return cookie.split(';')[0]!;
}

export async function benchAddresses(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-addresses-'));
  const dns = await startDnsStandIn();
  const dnsServers = dns.servers;
  let service: Service | null = null;
  try {
    const dbPath = join(dir, 'links.db');
    const codes = await seedDatabase(dbPath, LINKS);
    const db = new Database(dbPath, { readonly: true });
    const teamId = db.prepare('SELECT team_id FROM links LIMIT 1').pluck().get() as string;
    db.close();
    const hot = await optionedLinks(dbPath, teamId);
    service = await startService(1, dbPath, dnsServers, { PUBLIC_URL, LOG_LEVEL: 'silent' });
    const { url } = service;
    const cookie = await permission(url, hot.password!);
    const random = () => `/${codes[Math.floor(Math.random() * codes.length)]}`;
    const on = (host: string, extra: Record<string, string> = {}) => ({ host, 'user-agent': BROWSER, ...extra });
    const visits: Record<string, Visit> = {
      public: { path: random, headers: on(PUBLIC_HOST) },
      domain: { path: random, headers: on(DOMAIN) },
      plain: { path: () => `/${hot.plain}`, headers: on(PUBLIC_HOST) },
      password: { path: () => `/${hot.password}`, headers: on(PUBLIC_HOST, { cookie }) },
      cap: { path: () => `/${hot.cap}`, headers: on(PUBLIC_HOST) },
      expiry: { path: () => `/${hot.expiry}`, headers: on(PUBLIC_HOST) },
      forwardQuery: { path: () => `/${hot.forwardQuery}?utm_source=newsletter&utm_campaign=bench`, headers: on(PUBLIC_HOST) },
    };
    for (const [name, visit] of Object.entries(visits)) {
      const check = await getOnce(url, visit.path(), visit.headers);
      if (check.status !== 302) throw new Error(`addresses: ${name} answered ${check.status}: ${check.body.slice(0, 200)}`);
    }
    const elsewhere = await getOnce(url, '/app', on(DOMAIN));
    if (elsewhere.status !== 404) throw new Error(`addresses: /app on the domain answered ${elsewhere.status}`);

    const [pid] = service.pids();
    const loadOnce = async (visit: Visit): Promise<{ cpuPerAnswer: number; result: GetLoadResult }> => {
      const before = cpuMicros(pid!);
      const result = await loadGet({ url, path: visit.path, headers: visit.headers, seconds: 3, warmupSeconds: 1 });
      return { cpuPerAnswer: (cpuMicros(pid!) - before) / (result.total + result.warmupTotal), result };
    };
    console.log(`\naddresses: ${int(LINKS)} links of one team, its verified domain ${DOMAIN}, and hot links with options (one process, SQLite)`);
    const domain = await pairedRounds('public', 'domain', [`${int(LINKS / 1000)}k codes`], async (kind) => (await loadOnce(visits[kind]!)).cpuPerAnswer, ['public', 'domain']);
    const options = ['password', 'cap', 'expiry', 'forwardQuery'];
    const optioned = await pairedRounds(
      'plain',
      'optioned',
      options,
      async (which, kind) => (await loadOnce(visits[which === 'plain' ? 'plain' : kind]!)).cpuPerAnswer,
      ['plain', 'optioned'],
    );
    // The paired rounds saturate the server; what they counted is written over the next ANALYTICS_WRITE_MS (10 s).
    // The steady load is measured once that is done: the p99 of a steady load, not of the recovery from an overload
    // (which the first 8 s measured here before: 20 to 48 ms for the first kind).
    await sleep(ANALYTICS_WRITTEN_MS);
    const steady: string[] = [];
    for (const name of ['public', 'domain', 'plain', ...options]) {
      const visit = visits[name]!;
      const result = await pacedGet({ url, path: visit.path, headers: visit.headers, rate: RATE, seconds: STEADY_SECONDS });
      const redirects = result.statuses[302] ?? 0;
      steady.push(`${name} ${result.p99} ms (p50 ${result.p50})${redirects === result.answered ? '' : ` (${int(result.answered - redirects)} not 302)`}`);
    }
    const pct = (ratio: number | undefined) => (ratio === undefined ? '—' : `${Math.round(100 * ratio)}%`);
    return [
      `addresses  domain/public CPU per redirect ${pct(domain?.ratios[`${int(LINKS / 1000)}k codes`])} (target: within noise)` +
        ` | optioned/plain: ${options.map((kind) => `${kind} ${pct(optioned?.ratios[kind])}`).join(', ')}`,
      ...(domain ? [`           paired: ${domain.text}`] : []),
      ...(optioned ? [`           paired: ${optioned.text}`] : []),
      `           p99 at a steady ${int(RATE)} req/s for ${STEADY_SECONDS} s: ${steady.join(', ')} (target < 10 ms)`,
    ];
  } finally {
    await service?.stop();
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
