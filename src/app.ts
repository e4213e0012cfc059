import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createGate } from './auth/gate.js';
import { clientAddressOf, fromTrustedProxy } from './http/client-address.js';
import { requestIdOf } from './http/request-id.js';
import type { Config } from './config.js';
import type { NetworkCheck } from './destinations/checker.js';
import { unsafeSitesFromConfig } from './destinations/unsafe/from-config.js';
import type { UnsafeSitesCheck } from './destinations/unsafe/provider.js';
import { startUnsafeRecheck } from './destinations/unsafe/recheck.js';
import { startAnalyticsRetention } from './analytics/retention.js';
import { countryLookup } from './analytics/country.js';
import { startMail } from './mail/start.js';
import { startWebhooks, type WebhookJobs } from './webhooks/start.js';
import { cryptoRandom, type Random } from './domain/random.js';
import { openApiDocument } from './http-facade/openapi.js';
import { drainable } from './http/drain.js';
import { createHealth } from './http/health.js';
import { httpFacade } from './http-facade/router.js';
import { mcpEndpoint } from './mcp/route.js';
import { oauthRoutes, type OAuthOptions } from './oauth/router.js';
import { redirects } from './redirect/handler.js';
import { startDomainChecks } from './domains/checks.js';
import { TLS_ASK_PATH, tlsAsk } from './domains/tls-ask.js';
import { requestListener } from './routing.js';
import type { Store } from './store/ports.js';
import { openStore } from './store/open.js';
import type { ToolContext } from './tools/define-tool.js';
import { toolContext } from './tools/tool-context.js';
import { chooseRateLimiter } from './store/rate-limiter.js';
import { systemClock, type Clock } from './shared/clock.js';
import { webApp } from './web/app.js';
import { oauthPages } from './web/pages/consent.js';
import { webSessions } from './auth/web-sessions.js';
import type { Logger } from './observability/logger.js';
import { createObserver } from './observability/observer.js';

export interface AppOptions {
  clock?: Clock;
  random?: Random;
  store?: Store;
  /** Replaces the destination checks that need the network (tests point them at local stand-ins). */
  networkChecks?: { privateNetwork?: NetworkCheck; unsafeSites?: UnsafeSitesCheck };
  oauth?: OAuthOptions;
  /**
   * Counts every rate limit with the store (the default), so that all the processes serving the database share each
   * allowance; off: in this process's memory only, as if no other process served it.
   */
  sharedRateLimits?: boolean;
  /** Where the log goes: serve.ts hands in the process's logger; left out, one at the config's LOG_LEVEL. */
  logger?: Logger;
}

export interface App {
  ctx: ToolContext;
  /** Webhook deliveries and the daily clicks' events: run now by tests rather than on their schedules. */
  webhooks: Pick<WebhookJobs, 'deliverNow' | 'dailyClicksNow'>;
  server: Server;
  listen(): Promise<AddressInfo>;
  /** Where /metrics is served once listening (`host:port`), or null: METRICS_PORT unset, or a worker's. */
  metricsAddress(): string | null;
  close(): Promise<void>;
}

/**
 * The composition root: builds every dependency once, from the configuration and the store, and hands the
 * surfaces to the router (routing.ts); closes them in order.
 */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const observer = createObserver(config, options.logger);
  const store = observer.store(options.store ?? (await openStore(config, options.random ?? cryptoRandom, { serving: true })));
  const cursorSecret = await store.settings.cursorSecret();
  // The operator CLI prints addresses with it when its own environment sets no PUBLIC_URL.
  await store.settings.recordPublicUrl(config.publicUrl);
  const clock = options.clock ?? systemClock;
  const unsafeSites = options.networkChecks?.unsafeSites ?? unsafeSitesFromConfig(config);
  // The service's one resolver: destinations are checked, and OAuth metadata documents fetched, through it.
  const { ctx, resolveHost } = await toolContext(config, store, {
    clock,
    random: options.random ?? cryptoRandom,
    unsafeSites,
    ...(options.networkChecks?.privateNetwork ? { privateNetwork: options.networkChecks.privateNetwork } : {}),
    observe: (checker) => observer.checks(checker),
  });
  const { directory: domains, lookForProof } = ctx.domains;
  const recheck = unsafeSites ? startUnsafeRecheck({ store, check: unsafeSites, clock }) : undefined;
  // Old days of click analytics are removed by whichever process takes the day's lease.
  const retention = startAnalyticsRetention({ store, clock, log: (line) => observer.logger.info(line) });
  const webhooks = startWebhooks(config, { store, clock, resolveHost, addresses: () => domains.addresses(), log: (line) => observer.logger.warn(line) });
  const domainChecks = startDomainChecks({ store, lookForProof, clock, intervalMs: config.domainCheckMs, log: (line) => observer.logger.info(line) });
  // Mail queued by any process (or the CLI) goes out from whichever server process claims it first.
  const mail = config.mail
    ? startMail(config.mail, { outbox: store.mailOutbox, clock, log: (line) => observer.logger.warn(line), counted: (outcome) => observer.metrics.mailed(outcome) })
    : undefined;
  const trustedProxies = new Set(config.trustedProxies);
  const clientAddress = clientAddressOf(trustedProxies);
  // A budget is one budget whichever process answers: PostgreSQL's processes count in the database; SQLite's count
  // in memory, exactly and cheaply, while one is alone on the file, and in the file once another is there.
  const sharedRates = options.sharedRateLimits ?? true;
  const rates = observer.rates(chooseRateLimiter(store, sharedRates));
  const gate = createGate({ store, rates, clock, publicUrl: config.publicUrl, clientAddress });
  const api = httpFacade(ctx, gate);
  const mcp = mcpEndpoint(ctx, gate, cursorSecret);
  // A worker of WORKERS=N names itself on every answer (`X-Served-By`: its pid); a single process does not.
  const servedBy = config.workers > 1 ? String(process.pid) : null;
  // The country database is read whole here, once: a bad GEOIP_DATABASE stops the start.
  const analytics = config.analytics
    ? { countries: countryLookup(config.geoipDatabase), clientAddress, writeMs: config.analyticsWriteMs }
    : null;
  const redirectHandler = redirects({
    store,
    clock,
    publicUrl: config.publicUrl,
    gate,
    clicksCounted: observer.metrics.clicksCounted,
    servedBy,
    analytics,
    secret: cursorSecret,
    addresses: () => domains.addresses(),
  });
  const sessions = webSessions({ store, clock, publicUrl: config.publicUrl });
  const webPages = webApp(ctx, express(), { sessions, gate, log: () => observer.logger });
  const oauth = oauthRoutes(ctx, { sessions, gate, random: options.random ?? cryptoRandom, pages: oauthPages, resolveHost, options: options.oauth });
  const openApi = JSON.stringify(openApiDocument(config.publicUrl));
  const health = createHealth({ ready: () => store.ready(), publicUrl: config.publicUrl, log: (line) => observer.logger.warn(line) });

  const askTls = tlsAsk(domains, config.publicUrl);
  const listener = requestListener({
    publicUrl: config.publicUrl,
    store,
    domains,
    askTls,
    observer,
    gate,
    redirectHandler,
    api,
    mcp,
    oauth,
    webPages,
    health,
    openApi,
    requestId: requestIdOf(fromTrustedProxy(trustedProxies)),
    servedBy,
  });
  const server = createServer(serverTimeouts(config));
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  const connections = drainable(server, listener);

  let metricsAddress: string | null = null;
  return {
    ctx,
    webhooks: { deliverNow: webhooks.deliverNow, dailyClicksNow: webhooks.dailyClicksNow },
    server,
    async listen() {
      const address = await new Promise<AddressInfo>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => resolve(server.address() as AddressInfo));
      });
      metricsAddress = await observer.listen({ [TLS_ASK_PATH]: askTls });
      return address;
    },
    metricsAddress: () => metricsAddress,
    async close() {
      // Requests in flight finish first (their clicks are counted, their writes done); then the click counts are
      // written and the database closed.
      health.closing();
      const cut = await connections.drain(config.shutdownTimeoutMs);
      if (cut > 0) observer.logger.warn(`closing: cut off ${cut} ${cut === 1 ? 'request' : 'requests'} still running after ${config.shutdownTimeoutMs} ms`);
      await mcp.close();
      await redirectHandler.close();
      await recheck?.stop();
      await retention.stop();
      await domainChecks.stop();
      await mail?.stop();
      await webhooks.stop();
      await observer.close();
      await store.close();
    },
  };
}

/**
 * The limits on slow clients, from the configuration. Node checks them on a timer, every 30 s unless told
 * otherwise: once a second keeps each within a second of its value.
 */
function serverTimeouts(config: Config) {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
  };
}
