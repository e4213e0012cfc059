import { apiError, type ApiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import type { Caller } from '../shared/caller.js';
import { operationsOf } from './scopes.js';
import { ACCESS_PREFIX, sha256 } from './secrets.js';

/** What an assistant's access token carries besides the caller, for /mcp's scope checks and the SDK's AuthInfo. */
export interface OAuthAccess {
  clientId: string;
  scopes: string[];
  /** Epoch seconds. */
  expiresAt: number;
  resource: string;
}

export function isAccessToken(token: string | null): token is string {
  return token !== null && token.startsWith(ACCESS_PREFIX);
}

/**
 * The caller an assistant's access token acts as: the person who approved it, with the operations its scopes
 * allow, in all their teams (never limited to one team's record). 401 `invalid_token` when unknown, revoked,
 * expired or issued for another resource (the audience check). Before the person agreed to the terms, `firstStep` is
 * the 403 `first_step` to answer, unless /mcp can send the person to `PUBLIC_URL/welcome` instead.
 */
export async function callerOfAccessToken(
  store: Store,
  token: string,
  now: Date,
  resource: string,
  publicUrl: string,
): Promise<{ caller: Caller; access: OAuthAccess; firstStep: ApiError | null }> {
  const found = await store.oauth.token(sha256(token));
  if (!found || found.kind !== 'access') throw apiError.invalidToken();
  const expiresAt = Date.parse(found.expiresAt);
  if (expiresAt <= now.getTime()) throw apiError.invalidToken('The access token expired; refresh it.');
  if (found.resource !== resource) throw apiError.invalidToken(`The access token was issued for another resource than ${resource}.`);
  const caller = { personId: found.personId, scopes: operationsOf(found.scopes), recordTeamId: null };
  const access = { clientId: found.clientId, scopes: found.scopes, expiresAt: Math.floor(expiresAt / 1000), resource };
  if (!found.personAgreedTerms) {
    return { caller, access, firstStep: apiError.firstStep(`Agree to the terms at ${publicUrl}/welcome first; the assistant works from then on.`) };
  }
  void store.oauth.touchGrant(found.grantId, now);
  return { caller, access, firstStep: null };
}
