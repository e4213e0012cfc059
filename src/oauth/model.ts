import OAuth2Server from '@node-oauth/oauth2-server';
import type { Random } from '../domain/random.js';
import type { OAuthClient, OAuthStore } from '../store/ports.js';
import type { Clock } from '../shared/clock.js';
import { secretMatches, UnknownClient, type ClientDirectory } from './clients.js';
import { redirectUriMatches } from './redirect-uris.js';
import { grantedScopes } from '../auth/scopes.js';
import { ACCESS_PREFIX, newSecret, REFRESH_PREFIX, sha256 } from '../auth/secrets.js';
import { ACCESS_TOKEN_LIFETIME_S, CODE_LIFETIME_S, REFRESH_TOKEN_LIFETIME_S } from './lifetimes-and-limits.js';

type Model = OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel;

/** Who a code or token acts for; oauth2-server hands it through untouched. */
export interface GrantUser {
  personId: string;
  /** The RFC 8707 resource the grant is bound to (always PUBLIC_URL/mcp). */
  resource: string;
  grantId?: string;
  family?: string;
}

/** The client as oauth2-server sees it. */
export function noaClient(client: OAuthClient): OAuth2Server.Client {
  return { id: client.id, redirectUris: client.redirectUris, grants: ['authorization_code', 'refresh_token'] };
}

/** The token family of the tokens a code gives: a replayed code revokes them. */
const familyOf = (codeHash: Buffer) => codeHash.toString('hex').slice(0, 32);

/**
 * oauth2-server's model over our store. Everything secret is kept as its SHA-256. Expiry is decided by our clock
 * (tests move it); oauth2-server compares with the real time, so dates handed to it are "now + what is left".
 *
 * `authenticatesClients`: true for the token endpoint's model, whose `getClient(id, secret)` refuses a
 * confidential client without its secret (the route authenticated it already; this is the backstop). The
 * authorization endpoint's model is false: clients do not authenticate there (RFC 6749 §4.1.1).
 */
export function oauthModel(deps: {
  store: OAuthStore;
  clock: Clock;
  random: Random;
  clients: ClientDirectory;
  resource: string;
  authenticatesClients: boolean;
}): Model {
  const { store, clock, random, clients, resource, authenticatesClients } = deps;
  const left = (expiresAt: string) => new Date(Date.now() + Date.parse(expiresAt) - clock.now().getTime());
  const later = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000).toISOString();

  return {
    async getClient(clientId, clientSecret) {
      let client: OAuthClient;
      try {
        client = await clients.find(clientId);
      } catch (error) {
        // Thrown as is, oauth2-server would turn it into a 500 ServerError.
        if (error instanceof UnknownClient) throw new OAuth2Server.InvalidClientError(error.message);
        throw error;
      }
      if (authenticatesClients && !secretMatches(client, clientSecret)) {
        throw new OAuth2Server.InvalidClientError('The client secret is missing or wrong.');
      }
      return noaClient(client);
    },
    async validateRedirectUri(uri, client) {
      return redirectUriMatches(uri, client.redirectUris as string[]);
    },
    async validateScope(_user, _client, scope) {
      return grantedScopes(scope);
    },
    async generateAuthorizationCode() {
      return newSecret(random);
    },
    async generateAccessToken() {
      return newSecret(random, ACCESS_PREFIX);
    },
    async generateRefreshToken() {
      return newSecret(random, REFRESH_PREFIX);
    },

    async saveAuthorizationCode(code, client, user) {
      const { personId } = user as GrantUser;
      // The route refuses a request without an S256 challenge before it gets here; this is the backstop.
      if (!code.codeChallenge || code.codeChallengeMethod !== 'S256') throw new OAuth2Server.InvalidRequestError('PKCE S256 is required.');
      const grantId = await store.saveCode(
        {
          codeHash: sha256(code.authorizationCode),
          personId,
          clientId: client.id,
          scopes: code.scope ?? [],
          redirectUri: code.redirectUri,
          codeChallenge: code.codeChallenge,
          resource,
          expiresAt: later(CODE_LIFETIME_S),
        },
        clock.now(),
      );
      return { ...code, client, user: { ...user, grantId } };
    },
    async getAuthorizationCode(authorizationCode) {
      const found = await store.code(sha256(authorizationCode));
      if (!found) return null;
      if (found.usedAt !== null) {
        // A code used twice was stolen or replayed: what its first use gave is revoked (RFC 6749 §4.1.2).
        await store.revokeFamily(familyOf(found.codeHash));
        return null;
      }
      if (found.resource !== resource) return null;
      const user: GrantUser = { personId: found.personId, resource, grantId: found.grantId, family: familyOf(found.codeHash) };
      return {
        authorizationCode,
        expiresAt: left(found.expiresAt),
        redirectUri: found.redirectUri,
        scope: found.scopes,
        codeChallenge: found.codeChallenge,
        codeChallengeMethod: 'S256',
        client: { id: found.clientId, grants: [] },
        user,
      };
    },
    async revokeAuthorizationCode(code) {
      return store.useCode(sha256(code.authorizationCode), clock.now());
    },

    async saveToken(token, client, user) {
      const { grantId, family } = user as GrantUser;
      if (!grantId || !family) throw new OAuth2Server.ServerError('A token without its grant.');
      const now = clock.now();
      await store.saveTokens(
        {
          grantId,
          family,
          scopes: token.scope ?? [],
          resource,
          accessHash: sha256(token.accessToken),
          accessExpiresAt: later(ACCESS_TOKEN_LIFETIME_S),
          refreshHash: token.refreshToken ? sha256(token.refreshToken) : null,
          refreshExpiresAt: token.refreshToken ? later(REFRESH_TOKEN_LIFETIME_S) : null,
        },
        now,
      );
      void store.touchGrant(grantId, now);
      return { ...token, client, user };
    },
    async getRefreshToken(refreshToken) {
      if (!refreshToken.startsWith(REFRESH_PREFIX)) return null;
      const found = await store.token(sha256(refreshToken));
      if (!found || found.kind !== 'refresh') return null;
      if (found.usedAt !== null) {
        // A rotated refresh token came back: someone holds a copy. Its whole family goes (RFC 9700 §4.14.2).
        await store.revokeFamily(found.family);
        return null;
      }
      if (found.resource !== resource) return null;
      const user: GrantUser = { personId: found.personId, resource, grantId: found.grantId, family: found.family };
      return { refreshToken, refreshTokenExpiresAt: left(found.expiresAt), scope: found.scopes, client: { id: found.clientId, grants: [] }, user };
    },
    async revokeToken(token) {
      return store.useRefreshToken(sha256(token.refreshToken), clock.now());
    },
    async getAccessToken() {
      // /mcp verifies access tokens itself (src/oauth/access-tokens.ts); oauth2-server's authenticate() is unused.
      return null;
    },
  };
}
