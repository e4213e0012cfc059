import express, { type Express, type Request, type Response } from 'express';
import OAuth2Server from '@node-oauth/oauth2-server';
import AuthorizationCodeGrantType from '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js';
import RefreshTokenGrantType from '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js';
import { covers, grantedScopes, isScope } from '../auth/scopes.js';
import type { OAuthClient } from '../store/ports.js';
import { sendClientRefusal, sendInvalidClient, UnknownClient, type ClientDirectory } from './clients.js';
import { onlyMethods, openCors, sendOAuthError } from './http.js';
import { ACCESS_TOKEN_LIFETIME_S, REFRESH_TOKEN_LIFETIME_S } from './lifetimes-and-limits.js';
import { isOurResource } from '../auth/protected-resource.js';
import { type OAuthAddresses } from './addresses.js';
import { noteClient } from '../observability/request-facts.js';

/**
 * oauth2-server's authorization code grant, answering a redirect_uri that differs from the authorization
 * request's with `invalid_grant`, as RFC 6749 §5.2 says (it answers `invalid_request`).
 */
class CodeGrant extends AuthorizationCodeGrantType {
  override validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void {
    const given = request.body?.redirect_uri as unknown;
    if (given !== code.redirectUri) {
      throw new OAuth2Server.InvalidGrantError('redirect_uri is not the one of the authorization request.');
    }
  }
}

/**
 * oauth2-server's refresh token grant, judging the scope asked for by what the granted scopes include (`links`
 * includes `links:read`, so a refresh may narrow `links` to it) and ignoring unknown scopes as /authorize does
 * (`offline_access`); it compared names only, refusing `links:read` from a `links` grant as "extra". And the scope
 * is judged before the refresh token is spent: it spent it first, so a client that asked too much lost its sign-in.
 */
class RefreshGrant extends RefreshTokenGrantType {
  override async handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token> {
    const token = await this.getRefreshToken(request, client);
    const scope = this.getScope(request, token);
    await this.revokeToken(token);
    return this.saveToken(token.user, client, scope);
  }

  override getScope(request: OAuth2Server.Request, token: OAuth2Server.RefreshToken): string[] | undefined {
    const asked = OAuth2Server.AbstractGrantType.prototype.getScope.call(this, request) as string[] | undefined;
    const granted = token.scope ?? [];
    const known = asked?.filter(isScope) ?? [];
    if (known.length === 0) return granted;
    const beyond = known.filter((scope) => !covers(granted, scope));
    if (beyond.length > 0) {
      throw new OAuth2Server.InvalidScopeError(`A refresh cannot widen the scope: ${beyond.join(' ')} was not granted.`);
    }
    return grantedScopes(known);
  }
}

const TOKEN_OPTIONS = {
  accessTokenLifetime: ACCESS_TOKEN_LIFETIME_S,
  refreshTokenLifetime: REFRESH_TOKEN_LIFETIME_S,
  // Public clients (assistants) prove themselves with PKCE and hold their refresh tokens; confidential ones are
  // authenticated before oauth2-server is asked (see `clients.authenticate`).
  requireClientAuthentication: { authorization_code: false, refresh_token: false },
  alwaysIssueNewRefreshToken: true,
  extendedGrantTypes: {
    authorization_code: CodeGrant as unknown as typeof OAuth2Server.AbstractGrantType,
    refresh_token: RefreshGrant as unknown as typeof OAuth2Server.AbstractGrantType,
  },
};

/** The OAuth parameters of a token request handed to oauth2-server; anything else in the body is dropped. */
const TOKEN_PARAMS = ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope'];

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2})$/i;

/**
 * The client's id and secret from HTTP Basic (RFC 6749 §2.3.1, RFC 7617) or the form; both ways at once must
 * agree on the id. An `Authorization: Basic` header must be exactly standard base64 (padded) of
 * `form-urlencoded(id):form-urlencoded(secret)`; anything else (base64url, stray characters, no colon) is an
 * UnknownClient, answered 401 `invalid_client`. Other schemes are ignored: the header never reaches oauth2-server.
 */
export function credentialsOf(req: Request): { clientId: unknown; secret: unknown } {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const header = req.headers.authorization ?? '';
  if (!/^Basic(\s|$)/i.test(header)) return { clientId: body.client_id, secret: body.client_secret };
  const malformed = () => new UnknownClient('The client credentials in the Authorization header are malformed or name another client.');
  const basic = BASIC.exec(header);
  if (!basic || basic[1]!.length % 4 !== 0) throw malformed();
  const bytes = Buffer.from(basic[1]!, 'base64');
  if (bytes.toString('base64') !== basic[1]) throw malformed();
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const colon = text.indexOf(':');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return null;
    }
  };
  const clientId = colon < 0 ? null : decode(text.slice(0, colon));
  const secret = colon < 0 ? null : decode(text.slice(colon + 1));
  if (clientId === null || clientId === '' || secret === null || (body.client_id !== undefined && body.client_id !== clientId)) {
    throw malformed();
  }
  return { clientId, secret };
}

/**
 * `POST /token` (RFC 6749 §3.2): authorization code (with PKCE) and refresh token grants, by oauth2-server.
 * Around it: the `resource` check (RFC 8707, one trailing slash tolerated, absence meaning ours), client
 * authentication with `invalid_client` as 401, and `Cache-Control: no-store` on every answer. oauth2-server is
 * handed a request we build: the authenticated client's id (and secret), the grant's parameters and no
 * Authorization header, so it cannot read another client out of the caller's header. Every answer is JSON.
 */
export function tokenRoutes(
  app: Express,
  deps: { oauth: OAuth2Server; clients: ClientDirectory; addresses: OAuthAddresses; addressKey: (req: Request) => string },
): void {
  const { oauth, clients, addresses } = deps;

  async function token(req: Request, res: Response): Promise<void> {
    res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
    if (!req.is('application/x-www-form-urlencoded')) {
      return sendOAuthError(res, 400, 'invalid_request', 'Send the request as application/x-www-form-urlencoded.');
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const resources = body.resource === undefined ? [] : [body.resource].flat();
    if (resources.some((resource) => typeof resource !== 'string' || !isOurResource(resource, addresses.resource))) {
      return sendOAuthError(res, 400, 'invalid_target', `This server issues tokens for ${addresses.resource} only.`);
    }
    const repeated = [...TOKEN_PARAMS, 'client_id', 'client_secret'].filter((name) => body[name] !== undefined && typeof body[name] !== 'string');
    if (repeated.length > 0) {
      return sendOAuthError(res, 400, 'invalid_request', `Each parameter may be sent once: ${repeated.join(', ')}.`);
    }
    if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token') {
      return sendOAuthError(res, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
    let client: OAuthClient;
    let secret: unknown;
    try {
      const credentials = credentialsOf(req);
      secret = credentials.secret;
      client = await clients.authenticate(credentials, deps.addressKey(req));
    } catch (error) {
      return sendClientRefusal(res, error);
    }
    noteClient(res, client.id);
    const granted: Record<string, string> = { client_id: client.id };
    if (client.secretHash !== null && typeof secret === 'string') granted.client_secret = secret;
    for (const name of TOKEN_PARAMS) if (typeof body[name] === 'string') granted[name] = body[name];
    // The body is parsed already; oauth2-server checks the type again.
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' };
    const request = new OAuth2Server.Request({ method: 'POST', headers, query: {}, body: granted });
    const response = new OAuth2Server.Response();
    try {
      await oauth.token(request, response, TOKEN_OPTIONS);
      // oauth2-server counts expires_in from its own reading of the time; the token's life is exactly this.
      res.status(200).json({ ...(response.body as object), expires_in: ACCESS_TOKEN_LIFETIME_S });
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError) || error instanceof OAuth2Server.ServerError) throw error;
      if (error.name === 'invalid_client') return sendInvalidClient(res, error.message);
      sendOAuthError(res, error.code, error.name, error.message);
    }
  }

  app.use('/token', openCors('POST'));
  app.post('/token', express.urlencoded({ extended: false, limit: '16kb' }), token);
  app.all('/token', onlyMethods('POST'));
}
