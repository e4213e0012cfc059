import express, { type NextFunction, type Request, type Response } from 'express';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Gate } from '../auth/gate.js';
import { ApiError } from '../errors.js';
import type { ResolveHost } from '../destinations/resolver.js';
import type { Random } from '../domain/random.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { WebSessions } from '../auth/web-sessions.js';
import { signupModeForHeader } from '../auth/signup-rule.js';
import { authorizeRoutes } from './authorize.js';
import { clientDirectory } from './clients.js';
import { onlyMethods, openCors, sendOAuthError } from './http.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import { metadataDocuments, type MetadataDocumentOptions } from './metadata-documents.js';
import { resolveWith } from '../destinations/public-lookup.js';
import { oauthModel } from './model.js';
import type { OAuthPages } from './pages.js';
import { registerRoutes } from './register.js';
import { revokeRoutes } from './revoke.js';
import { oauthAddresses } from './addresses.js';
import { tokenRoutes } from './token.js';
import { setRetryAfter } from '../http/retry-after.js';
import { processLog } from '../observability/logger.js';

export interface OAuthOptions {
  /** How client ID metadata documents are fetched; tests only (see MetadataDocumentOptions). */
  metadataDocuments?: MetadataDocumentOptions;
}

const METADATA_PATHS = {
  '/.well-known/oauth-authorization-server': 'server',
  '/.well-known/openid-configuration': 'server',
  '/.well-known/oauth-protected-resource': 'resource',
  '/.well-known/oauth-protected-resource/mcp': 'resource',
} as const;

const PATHS: ReadonlySet<string> = new Set([
  ...Object.keys(METADATA_PATHS),
  '/authorize',
  '/token',
  '/register',
  '/revoke',
]);

/**
 * The authorization server of the MCP endpoint: an Express app answering the paths in `handles`. Issuer is
 * PUBLIC_URL; every endpoint sits at the origin's root (A3). The pages a person sees (consent, errors) are the web
 * app's, handed in as `pages`.
 */
export function oauthRoutes(
  ctx: ToolContext,
  deps: { sessions: WebSessions; gate: Gate; random: Random; pages: OAuthPages; resolveHost: ResolveHost; options?: OAuthOptions },
) {
  const { store, clock, config } = ctx;
  const { sessions, gate, random, pages } = deps;
  const addresses = oauthAddresses(config.publicUrl);
  // Documents are fetched with the resolver destinations are checked with (DNS_SERVERS, DNS_TIMEOUT_MS).
  const resolve = resolveWith(deps.resolveHost);
  const documents = metadataDocuments({ resolve, ...deps.options?.metadataDocuments });
  const clients = clientDirectory({ oauth: store.oauth, settings: store.settings, clock, documents, rates: gate.rates });
  const modelDeps = { store: store.oauth, clock, random, clients, resource: addresses.resource };
  // Two instances: the token endpoint's model authenticates clients (getClient checks the secret), the
  // authorization endpoint's does not (clients send no secret there).
  const authorizer = new OAuth2Server({ model: oauthModel({ ...modelDeps, authenticatesClients: false }) });
  const issuer = new OAuth2Server({ model: oauthModel({ ...modelDeps, authenticatesClients: true }) });
  const app = express();
  app.disable('x-powered-by');

  const documentsByKind = { server: authorizationServerMetadata(addresses), resource: protectedResourceMetadata(addresses) };
  for (const [path, kind] of Object.entries(METADATA_PATHS)) {
    app.use(path, openCors('GET'));
    app.get(path, (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').json(documentsByKind[kind]);
    });
    app.all(path, onlyMethods('GET'));
  }

  app.use('/authorize', express.urlencoded({ extended: false, limit: '16kb' }));
  // Its pages (consent, errors) have the web app's header, which offers sign-up only when it is not closed.
  app.use('/authorize', signupModeForHeader(store.settings));
  authorizeRoutes(app, { oauth: authorizer, store: store.oauth, clients, sessions, gate, addresses, pages });
  tokenRoutes(app, { oauth: issuer, clients, addresses, addressKey: gate.addressKey });
  registerRoutes(app, { store: store.oauth, clock, random, addressKey: gate.addressKey, rates: gate.rates });
  revokeRoutes(app, { store: store.oauth, clients, addressKey: gate.addressKey });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return res.end();
    if (req.path === '/token' || req.path === '/revoke') return tokenEndpointError(error, res);
    if (error instanceof ApiError) {
      setRetryAfter(res, error.retryAfter);
      return pages.message(res, error.status, error.status === 429 ? 'Too many requests' : 'Not allowed', error.message);
    }
    const refused = parserRefusal(error);
    if (refused) return pages.message(res, refused.status, 'Not understood', refused.detail);
    processLog().error({ err: error, requestId: res.getHeader('x-request-id') }, 'Unexpected error in the OAuth routes');
    pages.message(res, 500, 'Something went wrong', 'Something went wrong on our side; try again in a minute.');
  });

  return {
    app,
    /** True for the paths this app answers. */
    handles: (path: string) => PATHS.has(path),
  };
}

/** A body parser's refusal, with its own status: 413 for a body over the size cap, 400 for one it cannot read. */
function parserRefusal(error: unknown): { status: number; detail: string } | null {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  return { status, detail: status === 413 ? 'The body is too large.' : 'The body is malformed.' };
}

/** /token and /revoke answer JSON error objects (RFC 6749 §5.2), whatever went wrong. */
function tokenEndpointError(error: unknown, res: Response): void {
  if (error instanceof ApiError) {
    setRetryAfter(res, error.retryAfter);
    return sendOAuthError(res, error.status, error.status === 429 ? 'too_many_requests' : 'invalid_request', error.message);
  }
  // RFC 6749 §5.2's error object; its status is 400, but for a body over the cap, 413 as on every other path.
  const refused = parserRefusal(error);
  if (refused) return sendOAuthError(res, refused.status === 413 ? 413 : 400, 'invalid_request', refused.detail);
  processLog().error({ err: error, requestId: res.getHeader('x-request-id') }, 'Unexpected error in the OAuth token endpoints');
  sendOAuthError(res, 500, 'server_error', 'Something went wrong on our side; try again in a minute.');
}
