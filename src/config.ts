import { accessSync, constants } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { packageRoot } from './paths.js';

const WORKERS_RANGE = { error: 'must be a whole number from 1 to 64' };
/** pino's levels, quietest last; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A duration in milliseconds from the environment: a whole number from `min` to 10 minutes. */
const milliseconds = (fallback: number, min = 1) => z.coerce.number().int().min(min).max(600_000).default(fallback);

/** Environment → validated, frozen configuration. Every variable is documented in the README's table. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: z
    .string()
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  DATABASE_PATH: z.string().min(1).default('data/shortlinks.db'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/./, 'must be a postgres:// URL (postgres://user:password@host:port/database)')
    .optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
  DNS_SERVERS: z.string().optional(),
  DNS_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(2000),
  UNSAFE_LIST_FILE: z.string().min(1).optional(),
  SAFE_BROWSING_API_KEY: z.string().min(1).optional(),
  SAFE_BROWSING_URL: z.string().url().default('https://safebrowsing.googleapis.com/v4/threatMatches:find'),
  WORKERS: z.coerce.number(WORKERS_RANGE).int(WORKERS_RANGE).min(1, WORKERS_RANGE).max(64, WORKERS_RANGE).default(1),
  SHUTDOWN_TIMEOUT_MS: milliseconds(10_000, 0),
  HEADERS_TIMEOUT_MS: milliseconds(20_000),
  REQUEST_TIMEOUT_MS: milliseconds(60_000),
  // Longer than the 60 s a reverse proxy (nginx, most load balancers) keeps an idle upstream connection, so the
  // proxy, not this server, closes it: otherwise the proxy may send a request on a connection closing under it.
  KEEP_ALIVE_TIMEOUT_MS: milliseconds(65_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  OIDC_ISSUER: z.string().url().refine(issuerAllowed, 'must be an https:// URL (http:// only on a loopback host)').optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(60).optional(),
  OIDC_ALLOWED_DOMAINS: z.string().optional(),
  OIDC_ONLY: z.enum(['0', '1']).default('0'),
  SMTP_URL: z.string().refine(smtpUrlAllowed, 'must be an smtp:// or smtps:// URL (smtps://user:password@host:465)').optional(),
  MAIL_FROM: z.string().trim().min(3).max(200).optional(),
  MAIL_RETRY_MS: milliseconds(60_000),
  ANALYTICS: z.enum(['on', 'off']).default('on'),
  ANALYTICS_WRITE_MS: milliseconds(10_000),
  GEOIP_DATABASE: z.string().min(1).optional(),
  DOMAIN_CHECK_MS: milliseconds(60_000),
  WEBHOOK_POLL_MS: milliseconds(1_000),
  WEBHOOK_TIMEOUT_MS: milliseconds(10_000),
}).refine((e) => (e.SMTP_URL === undefined) === (e.MAIL_FROM === undefined), {
  path: ['SMTP_URL'],
  message: 'SMTP_URL and MAIL_FROM are set together or not at all',
}).refine((e) => [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].every((v) => v === undefined) || (e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET), {
  path: ['OIDC_ISSUER'],
  message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together or not at all',
}).refine((e) => e.OIDC_ONLY === '0' || e.OIDC_ISSUER !== undefined, {
  path: ['OIDC_ONLY'],
  message: 'needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
}).refine((e) => e.HEADERS_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS, {
  path: ['HEADERS_TIMEOUT_MS'],
  message: 'must not be more than REQUEST_TIMEOUT_MS',
});

export interface Config {
  port: number;
  host: string | undefined;
  /** The service's own address, no trailing slash: `https://links.example.com`. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set; if not, the operator CLI prefers the one the server recorded as it started. */
  publicUrlGiven: boolean;
  /** Absolute: a relative DATABASE_PATH is taken from the installation (the folder of package.json), never the current folder. */
  databasePath: string;
  /** A postgres:// URL: the PostgreSQL store instead of the SQLite file. It may hold a password: never print it. */
  databaseUrl: string | undefined;
  /** Browser origins allowed to call /mcp besides PUBLIC_URL's own (an MCP Inspector, say). */
  allowedOrigins: string[];
  /** Addresses of reverse proxies whose X-Forwarded-For names the client. */
  trustedProxies: string[];
  /** Resolvers for destination checks (`host[:port]`); empty for the system's. */
  dnsServers: string[];
  dnsTimeoutMs: number;
  /** A local list of unsafe domains and URLs, one a line, reloaded when it changes. */
  unsafeListFile: string | undefined;
  /** Google Safe Browsing v4 Lookup API: the key turns it on; the URL can point at a stand-in. */
  safeBrowsingApiKey: string | undefined;
  safeBrowsingUrl: string;
  /** Server processes on this machine, sharing the port and the database; 1 is one process without a primary. */
  workers: number;
  /** How long requests in flight may go on after SIGTERM or SIGINT before their connections are closed. */
  shutdownTimeoutMs: number;
  /** The HTTP server's limits on a slow client: all headers, the whole request, an idle kept-alive connection. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How much the JSON log on standard output says: one line per API, MCP and web request at `info`. */
  logLevel: LogLevel;
  /** Prometheus text at /metrics on this port, on its own listener (never the public one); undefined: off. */
  metricsPort: number | undefined;
  /** The metrics listener's address: loopback unless the operator opens it to their scraper's network. */
  metricsHost: string;
  /** Single sign-on with an OpenID provider (OIDC_*); undefined: off. */
  oidc: OidcConfig | undefined;
  /** Email (SMTP_URL and MAIL_FROM); undefined: off, and links are shown to the operator as before. */
  mail: MailConfig | undefined;
  /** Click analytics (countries, referrers, devices, visitors, not-counted classes); off: the daily clicks only. */
  analytics: boolean;
  /** How often a process writes the click analytics it counted (the daily clicks are written every second). */
  analyticsWriteMs: number;
  /** An mmdb file (GeoLite2 Country or City) for countries instead of the DB-IP one shipped; absolute, like databasePath. */
  geoipDatabase: string | undefined;
  /** How often a process looks for teams' domains whose DNS check is due (one process at a time checks them). */
  domainCheckMs: number;
  /** How often a process looks for webhook deliveries due (one process at a time sends them: webhooks/deliveries.ts). */
  webhookPollMs: number;
  /** How long a webhook delivery may take, connecting and answering, before it counts as failed. */
  webhookTimeoutMs: number;
}

/** Where mail goes out, whom it is from, and how soon a failed message is tried again. */
export interface MailConfig {
  /** smtp:// or smtps://, with credentials: it holds a password, never print it. */
  smtpUrl: string;
  /** The From header: `links@example.com` or `Short links <links@example.com>`. */
  from: string;
  /** The wait after a first failed attempt; it doubles after each further one. */
  retryMs: number;
}

/** A URL nodemailer takes as its transport: smtp:// (STARTTLS when offered) or smtps:// (TLS from the start). */
function smtpUrlAllowed(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Single sign-on: the provider, this service's client there, and who may make an account with it. */
export interface OidcConfig {
  /** The provider's issuer URL; its discovery document is read from it at the first sign-in. */
  issuer: string;
  clientId: string;
  /** A secret: never print it. */
  clientSecret: string;
  /** The button's words: "Sign in with <name>". */
  name: string;
  /** Email domains (lowercase) whose people may make an account by signing in; empty: any. */
  allowedDomains: string[];
  /** Password sign-in (and sign-up) only for operators. */
  only: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on this machine only (a provider for tests or run locally): a token never crosses a network in clear. */
function issuerAllowed(value: string): boolean {
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A path from the environment; a relative one is taken from the installation (the folder of package.json), never the current folder. */
function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(packageRoot, path);
}

/** Throws the configuration's one-line reason when `path` cannot be read. */
function readable(variable: string, path: string): void {
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`Bad configuration: ${variable}: cannot read ${path} (${code === 'ENOENT' ? 'no such file' : code ?? 'unreadable'})`);
  }
}

/** Reads the configuration; throws a one-line reason on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Bad configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  const geoipDatabase = e.GEOIP_DATABASE === undefined ? undefined : absolute(e.GEOIP_DATABASE);
  // Checked here, not at the first lookup: a mistyped path stops the start (and WORKERS' primary) with its reason.
  if (geoipDatabase !== undefined) readable('GEOIP_DATABASE', geoipDatabase);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    // Without PUBLIC_URL the service is reached where it listens, so PORT alone moves /mcp and the short links too.
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    publicUrlGiven: e.PUBLIC_URL !== undefined,
    databasePath: absolute(e.DATABASE_PATH),
    databaseUrl: e.DATABASE_URL,
    allowedOrigins: list(e.ALLOWED_ORIGINS),
    trustedProxies: list(e.TRUST_PROXY),
    dnsServers: list(e.DNS_SERVERS),
    dnsTimeoutMs: e.DNS_TIMEOUT_MS,
    unsafeListFile: e.UNSAFE_LIST_FILE,
    safeBrowsingApiKey: e.SAFE_BROWSING_API_KEY,
    safeBrowsingUrl: e.SAFE_BROWSING_URL,
    workers: e.WORKERS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME ?? 'single sign-on',
            allowedDomains: list(e.OIDC_ALLOWED_DOMAINS).map((domain) => domain.toLowerCase()),
            only: e.OIDC_ONLY === '1',
          }
        : undefined,
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, retryMs: e.MAIL_RETRY_MS } : undefined,
    analytics: e.ANALYTICS === 'on',
    analyticsWriteMs: e.ANALYTICS_WRITE_MS,
    geoipDatabase,
    domainCheckMs: e.DOMAIN_CHECK_MS,
    webhookPollMs: e.WEBHOOK_POLL_MS,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
  });
}
