import type { Express, Request, Response } from 'express';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Gate } from '../auth/gate.js';
import type { OAuthClient, OAuthStore } from '../store/ports.js';
import type { WebSessions } from '../auth/web-sessions.js';
import { TooManyFetches, UnknownClient, type ClientDirectory } from './clients.js';
import { paramsOf } from './http.js';
import type { GrantUser } from './model.js';
import type { OAuthPages } from './pages.js';
import { redirectUriMatches } from './redirect-uris.js';
import { grantedScopes, type Scope } from '../auth/scopes.js';
import { CODE_LIFETIME_S } from './lifetimes-and-limits.js';
import { isOurResource } from '../auth/protected-resource.js';
import { type OAuthAddresses } from './addresses.js';
import { setRetryAfter } from '../http/retry-after.js';

const PARAMS = ['response_type', 'client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method', 'resource'];
const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
const VISIBLE_ASCII = /^[\x20-\x7e]*$/;

/** A checked authorization request: every parameter valid, the client known and the redirect URI its own. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  scopes: Scope[];
  codeChallenge: string;
  /** The parameters as sent, for the consent form to carry and the sign-in page to come back to. */
  params: Record<string, string | undefined>;
}

type Destination = Pick<AuthorizationRequest, 'redirectUri' | 'state'>;

/**
 * An error of a request whose client and redirect URI check out (RFC 6749 §4.1.2.1). It goes back to the redirect
 * URI only from the consent form, or for a client the person approved before; otherwise it is shown to the person
 * (RFC 9700 §4.11.1: anyone can register a client with any redirect URI, so an automatic error redirect would make
 * /authorize an open redirector).
 */
class RedirectedError extends Error {
  constructor(readonly client: OAuthClient, readonly to: Destination, readonly error: string, description: string) {
    super(description);
  }
}

/** An error that cannot go back to the client (unknown client, unregistered redirect URI): shown to the person. */
class ShownError extends Error {}

/**
 * `/authorize`: GET shows the consent page (after sign-in and the first step), POST records the answer. The
 * grant itself (code, PKCE binding, scope) is oauth2-server's; around it we require PKCE S256, check `resource`
 * (RFC 8707), and add `iss` to every answer (RFC 9207).
 */
export function authorizeRoutes(app: Express, deps: {
  oauth: OAuth2Server;
  store: OAuthStore;
  clients: ClientDirectory;
  sessions: WebSessions;
  gate: Gate;
  addresses: OAuthAddresses;
  pages: OAuthPages;
}): void {
  const { oauth, store, clients, sessions, gate, addresses, pages } = deps;

  async function check(source: unknown, from: string): Promise<AuthorizationRequest> {
    const { values, repeated } = paramsOf(source, PARAMS);
    let client: OAuthClient;
    try {
      client = await clients.find(values.client_id, from);
    } catch (error) {
      if (error instanceof UnknownClient) throw new ShownError(`The application is not known here. ${error.message}`);
      throw error;
    }
    const redirectUri = values.redirect_uri;
    if (redirectUri === undefined || !redirectUriMatches(redirectUri, client.redirectUris)) {
      throw new ShownError('The address to return to (redirect_uri) is missing or is not one the application registered.');
    }
    const to = { redirectUri, state: values.state };
    const refuse = (error: string, description: string) => new RedirectedError(client, to, error, description);
    if (repeated.length > 0) throw refuse('invalid_request', `Each parameter may be sent once: ${repeated.join(', ')}.`);
    if (values.state !== undefined && !VISIBLE_ASCII.test(values.state)) throw refuse('invalid_request', 'state holds characters outside visible ASCII.');
    if (values.response_type !== 'code') throw refuse('unsupported_response_type', 'Only response_type=code is supported.');
    if (values.code_challenge === undefined) throw refuse('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
    // Without a method, RFC 7636 §4.3 reads the challenge as `plain`, which we refuse: saying S256 is the client's part.
    if (values.code_challenge_method !== 'S256') throw refuse('invalid_request', 'code_challenge_method must be S256.');
    if (!CHALLENGE.test(values.code_challenge)) throw refuse('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.');
    if (values.resource !== undefined && !isOurResource(values.resource, addresses.resource)) {
      throw refuse('invalid_target', `This server issues tokens for ${addresses.resource} only.`);
    }
    const scopes = grantedScopes(values.scope?.split(' ').filter(Boolean));
    return { client, ...to, params: values, scopes, codeChallenge: values.code_challenge };
  }

  /** The client's redirect URI with `params`, `state` and `iss`. */
  function answerUrl(request: Destination, params: Record<string, string>): string {
    const url = new URL(request.redirectUri);
    for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
    if (request.state !== undefined) url.searchParams.append('state', request.state);
    url.searchParams.append('iss', addresses.issuer);
    return url.href;
  }

  /** Sends the person back to the client with `params`, `state` and `iss`. */
  function back(res: Response, status: 302 | 303, request: Destination, params: Record<string, string>): void {
    res.redirect(status, answerUrl(request, params));
  }

  /** True when the signed-in person (if any) has approved this client before. */
  async function approvedBefore(req: Request, res: Response, clientId: string): Promise<boolean> {
    const me = await sessions.signedIn(req, res);
    if (!me) return false;
    return (await store.grants(me.person.id)).some((grant) => grant.clientId === clientId);
  }

  async function handle(req: Request, res: Response, source: unknown): Promise<void> {
    const isPost = req.method === 'POST';
    res.set('Cache-Control', 'no-store');
    let request: AuthorizationRequest;
    try {
      if (isPost) await sessions.checkForm(req, res);
      request = await check(source, gate.addressKey(req));
    } catch (error) {
      if (error instanceof ShownError) return pages.message(res, 400, 'This sign-in link does not work', error.message);
      if (error instanceof TooManyFetches) {
        setRetryAfter(res, error.retryAfter);
        return pages.message(res, 429, 'Too many requests', error.message);
      }
      if (error instanceof RedirectedError) {
        const answer = { error: error.error, error_description: error.message };
        // From our consent form (CSRF-checked), or for a client this person approved before: back to it.
        if (isPost || (await approvedBefore(req, res, error.client.id))) return back(res, isPost ? 303 : 302, error.to, answer);
        return pages.refused(res, { message: error.message, error: error.error, returnTo: answerUrl(error.to, answer) });
      }
      throw error;
    }
    const me = await sessions.signedIn(req, res);
    const sent = Object.entries(request.params).filter((entry): entry is [string, string] => entry[1] !== undefined);
    const comeBack = `/authorize?${new URLSearchParams(sent)}`;
    if (!me) return res.redirect(303, `/signin?next=${encodeURIComponent(comeBack)}`);
    await gate.count(res, me.person.id);
    if (me.person.agreedTermsAt === null) return res.redirect(303, `/welcome?next=${encodeURIComponent(comeBack)}`);
    if (!isPost) return pages.consent(res, { request, me, csrf: await sessions.formToken(req, res) });
    if ((req.body as Record<string, unknown>).decision !== 'approve') {
      return back(res, 303, request, { error: 'access_denied', error_description: 'The person denied access.' });
    }
    // A metadata document client is stored once a person approves it (until then it lives in memory only).
    await clients.keep(request.client);
    const user: GrantUser = { personId: me.person.id, resource: addresses.resource };
    const grant = new OAuth2Server.Request({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      query: {},
      body: {
        response_type: 'code',
        client_id: request.client.id,
        redirect_uri: request.redirectUri,
        scope: request.scopes.join(' '),
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      },
    });
    try {
      const code = await oauth.authorize(grant, new OAuth2Server.Response(), {
        authenticateHandler: { handle: () => user },
        allowEmptyState: true,
        authorizationCodeLifetime: CODE_LIFETIME_S,
      });
      back(res, 303, request, { code: code.authorizationCode });
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError) || error instanceof OAuth2Server.ServerError) throw error;
      back(res, 303, request, { error: error.name, error_description: error.message });
    }
  }

  app.get('/authorize', (req, res) => handle(req, res, req.query));
  app.post('/authorize', (req, res) => handle(req, res, req.body));
}
