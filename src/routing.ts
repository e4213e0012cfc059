import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gate } from './auth/gate.js';
import { isServicePath } from './domain/service-paths.js';
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
import type { Store } from './store/ports.js';

/** The surfaces the composition root built, each answering the requests routed to it. */
export interface Surfaces {
  publicUrl: string;
  store: Store;
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
  const { publicUrl, store, observer, gate, redirectHandler, api, mcp, oauth, webPages, health, openApi, requestId, servedBy } =
    surfaces;

  async function route(req: IncomingMessage, res: ServerResponse, id: string, started: number): Promise<void> {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    // Sliced, not split into an array: every redirect asks.
    const path = query === -1 ? url : url.slice(0, query);
    // Every other path is a link's (the redirect resolver catches up for itself); the pages answer one that cannot
    // be a link with their not-found page.
    const linkPath = !isServicePath(path);
    if (linkPath) {
      const link = await redirectHandler.handleRedirect(req, res, path, id);
      // `/qr/` too: a trailing slash is ignored (redirect/handler.ts).
      if (link !== false) return observer.redirected(req, res, path.endsWith('/qr') || path.endsWith('/qr/'), link, id, started);
    } else if (!store.changes.cachesCheckThemselves && !isHealthPath(path)) {
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
