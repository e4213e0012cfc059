import express, { type Express, type Request, type Response } from 'express';
import OAuth2Server from '@node-oauth/oauth2-server';
import AuthorizationCodeGrantType from '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js';
import { UnknownClient, type ClientDirectory } from './clients.js';
import { onlyMethods, openCors, sendOAuthError } from './http.js';
import { ACCESS_TOKEN_LIFETIME_S, isOurResource, REFRESH_TOKEN_LIFETIME_S, type OAuthAddresses } from './settings.js';

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

const TOKEN_OPTIONS = {
  accessTokenLifetime: ACCESS_TOKEN_LIFETIME_S,
  refreshTokenLifetime: REFRESH_TOKEN_LIFETIME_S,
  // Public clients (assistants) prove themselves with PKCE and hold their refresh tokens; confidential ones are
  // authenticated before oauth2-server is asked (see `clients.authenticate`).
  requireClientAuthentication: { authorization_code: false, refresh_token: false },
  alwaysIssueNewRefreshToken: true,
  extendedGrantTypes: { authorization_code: CodeGrant as unknown as typeof OAuth2Server.AbstractGrantType },
};

/** The client's id and secret from HTTP Basic (RFC 6749 §2.3.1) or the form; both ways at once must agree. */
export function credentialsOf(req: Request): { clientId: unknown; secret: unknown } {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!basic) return { clientId: body.client_id, secret: body.client_secret };
  const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
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
  if (clientId === null || (body.client_id !== undefined && body.client_id !== clientId)) {
    throw new UnknownClient('The client credentials in the Authorization header are malformed or name another client.');
  }
  return { clientId, secret };
}

/**
 * `POST /token` (RFC 6749 §3.2): authorization code (with PKCE) and refresh token grants, by oauth2-server.
 * Around it: the `resource` check (RFC 8707, one trailing slash tolerated, absence meaning ours), client
 * authentication with `invalid_client` as 401, and `Cache-Control: no-store` on every answer.
 */
export function tokenRoutes(app: Express, deps: { oauth: OAuth2Server; clients: ClientDirectory; addresses: OAuthAddresses }): void {
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
    if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token') {
      return sendOAuthError(res, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
    try {
      await clients.authenticate(credentialsOf(req));
    } catch (error) {
      if (!(error instanceof UnknownClient)) throw error;
      if (/^Basic\s/i.test(req.headers.authorization ?? '')) res.set('WWW-Authenticate', 'Basic realm="shortlinks"');
      return sendOAuthError(res, 401, 'invalid_client', error.message);
    }
    // The body is parsed already; oauth2-server checks the type again, and reads Basic credentials itself.
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' };
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    const request = new OAuth2Server.Request({ method: 'POST', headers, query: {}, body });
    const response = new OAuth2Server.Response();
    try {
      await oauth.token(request, response, TOKEN_OPTIONS);
      // oauth2-server counts expires_in from its own reading of the time; the token's life is exactly this.
      res.status(200).json({ ...(response.body as object), expires_in: ACCESS_TOKEN_LIFETIME_S });
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError) || error instanceof OAuth2Server.ServerError) throw error;
      const status = error.name === 'invalid_client' ? 401 : error.code;
      sendOAuthError(res, status, error.name, error.message);
    }
  }

  app.use('/token', openCors('POST'));
  app.post('/token', express.urlencoded({ extended: false, limit: '16kb' }), token);
  app.all('/token', onlyMethods('POST'));
}
