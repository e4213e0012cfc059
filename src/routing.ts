import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gate } from './auth/gate.js';
import { domainBase, hostOf } from './domain/custom-domain.js';
import { isServicePath } from './domain/service-paths.js';
import type { DomainDirectory } from './domains/directory.js';
import { mayAskOnPublicListener, TLS_ASK_PATH } from './domains/tls-ask.js';
import { answerOnDomain } from './redirect/domain-site.js';
import { stampIds } from './http/answer-ids.js';
import type { Health } from './http/health.js';
import { canAnswer, sendJson, sendProblem } from './http/problem.js';
import { ClientGone } from './http/read-body.js';
import { isApiPath, type httpFacade } from './http-facade/router.js';
import type { mcpEndpoint } from './mcp/route.js';
import type { oauthRoutes } from './oauth/router.js';
import type { createObserver } from './observability/observer.js';
import { noteOperation } from './observability/request-facts.js';
import type { redirects } from './redirect/handler.js';
import type { Store, TeamDomain } from './store/ports.js';

/** The surfaces the composition root built, each answering the requests routed to it. */
export interface Surfaces {
  publicUrl: string;
  store: Store;
  /** The teams' own domains: a request whose host is one is answered as that domain's (redirect/domain-site.ts). */
  domains: DomainDirectory;
  /** A reverse proxy's question before it gets a certificate (domains/tls-ask.ts), from this machine only. */
  askTls: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  observer: ReturnType<typeof createObserver>;
  gate: Gate;
  redirectHandler: ReturnType<typeof redirects>;
  api: ReturnType<typeof httpFacade>;
  mcp: ReturnType<typeof mcpEndpoint>;
  oauth: ReturnType<typeof oauthRoutes>;
  /** The web pages (an Express app), which answer every path no other surface takes. */
  webPages: (req: IncomingMessage, res: ServerResponse) => void;
  health: Health;
  /** The OpenAPI document, serialised once. */
  openApi: string;
  requestId: (req: IncomingMessage) => string;
  /** The pid a worker of WORKERS=N names itself by on every answer, or null. */
  servedBy: string | null;
}

const isHealthPath = (path: string) => path === '/healthz' || path === '/health';

/**
 * The server's request listener: routes each request to its surface. The API and /mcp are answered by plain
 * node:http handlers (they need no middleware); pages go to Express.
 */
export function requestListener(surfaces: Surfaces): (req: IncomingMessage, res: ServerResponse) => void {
  const { publicUrl, store, domains, askTls, observer, gate, redirectHandler, api, mcp, oauth, webPages, health, openApi, requestId, servedBy } =
    surfaces;
  // As a Host header names PUBLIC_URL: a request that names it exactly (nearly all) asks nothing more.
  const publicHost = new URL(publicUrl).host;
  const isQrPath = (path: string) => path.endsWith('/qr') || path.endsWith('/qr/');

  async function route(req: IncomingMessage, res: ServerResponse, id: string, started: number): Promise<void> {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    // Sliced, not split into an array: every redirect asks.
    const path = query === -1 ? url : url.slice(0, query);
    if (path === TLS_ASK_PATH && mayAskOnPublicListener(req)) {
      stampIds(res, id, servedBy);
      observer.follow(req, res, 'web', started, id);
      return askTls(req, res);
    }
    // Any other host is looked up among the teams' domains (in memory: domains/directory.ts), which catches the
    // request up with other processes' changes; one that is none is served as PUBLIC_URL is, as it always was (a
    // proxy or a test may reach the service by another name). The health check never is: it must answer whatever
    // the database does, on whichever name a probe uses.
    const host = req.headers.host === publicHost || isHealthPath(path) ? null : hostOf(req.headers.host);
    const domain = host === null ? null : await domains.byHost(host);
    if (domain) return routeOnDomain(req, res, domain, path, id, started);
    const caughtUp = host !== null;
    // Every other path is a link's (the redirect resolver catches up for itself); the pages answer one that cannot
    // be a link with their not-found page.
    const linkPath = !isServicePath(path);
    if (linkPath) {
      const link = await redirectHandler.handleRedirect(req, res, path, id, null, caughtUp);
      // `/qr/` too: a trailing slash is ignored (redirect/handler.ts).
      if (link !== false) return observer.redirected(req, res, isQrPath(path), link, id, started);
    } else if (!caughtUp && !store.changes.cachesCheckThemselves && !isHealthPath(path)) {
      // Once per request, before any cache answers: every change other processes made before it was sent is seen
      // (on PostgreSQL a look at the clock: store/postgres/changes.ts). Not for the health check, which reads no
      // cache and must answer in time whatever the database does.
      await store.changes.catchUp();
    }
    // The redirects above write theirs with their other headers (redirect/handler.ts).
    stampIds(res, id, servedBy);
    const surface = linkPath ? 'web' : path === '/mcp' ? 'mcp' : oauth.handles(path) ? 'oauth' : isApiPath(path) ? 'api' : 'web';
    observer.follow(req, res, surface, started, id);
    if (linkPath) return webPages(req, res);
    // Not gated: probes come often from one address, and however many come, one database check runs at a time.
    if (isHealthPath(path)) {
      noteOperation(res, path);
      return health.answer(req, res);
    }
    if (surface === 'mcp') return mcp.handleMcp(req, res);
    if (surface === 'oauth') return oauth.app(req, res);
    if (path === '/v1/openapi.json' && (req.method === 'GET' || req.method === 'HEAD')) {
      noteOperation(res, 'openapi.json');
      await gate.admit(req, res);
      res.setHeader('Access-Control-Allow-Origin', '*');
      return sendJson(res, 200, openApi);
    }
    if (await api(req, res, path)) return;
    webPages(req, res);
  }

  /**
   * A request on a team's domain: only the team's links (when the domain is verified), its root and robots.txt;
   * everything else is the not-found page. The domain's lookup caught the request up with other processes' changes.
   */
  async function routeOnDomain(req: IncomingMessage, res: ServerResponse, domain: TeamDomain, path: string, id: string, started: number) {
    if (domain.state === 'verified') {
      const site = { teamId: domain.teamId, base: domainBase(domain.domain) };
      const link = await redirectHandler.handleRedirect(req, res, path, id, site);
      if (link !== false) return observer.redirected(req, res, isQrPath(path), link, id, started);
    }
    stampIds(res, id, servedBy);
    observer.follow(req, res, 'web', started, id);
    answerOnDomain(req, res, domain, path);
  }

  return (req, res) => {
    const started = performance.now();
    const id = requestId(req);
    route(req, res, id, started).catch((error: unknown) => {
      // The surfaces answer their own errors; what reaches here is a fault or a client gone mid-answer.
      if (error instanceof ClientGone) return void res.destroy();
      if (!canAnswer(res)) {
        observer.logger.error({ err: error, requestId: id }, 'Unexpected error after the answer began');
        return void res.destroy();
      }
      stampIds(res, id, servedBy);
      sendProblem(res, error, publicUrl);
    });
  };
}
