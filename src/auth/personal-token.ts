import { timingSafeEqual } from 'node:crypto';
import { apiError, type ApiError } from '../errors.js';
import { randomString, type Random } from '../domain/random.js';
import type { Store, TokenRecord } from '../store/ports.js';
import type { Caller } from '../shared/caller.js';
import { sha256 } from './secrets.js';

/**
 * Personal tokens look like `sl_<16 id chars>_<40 secret chars>`. The id finds the row; the secret is kept only as
 * its SHA-256 (a 238-bit random secret needs no slow hash) and compared in constant time.
 */
const TOKEN_PATTERN = /^sl_([A-Za-z0-9]{16})_([A-Za-z0-9]{40})$/;

/** Makes a token for a person and team; the returned `token` is shown once and never stored. */
export async function issueToken(
  store: Store,
  random: Random,
  input: { personId: string; teamId: string; label?: string | null; scopes: string[] | null; limited: boolean },
  now: Date,
): Promise<{ token: string; record: TokenRecord }> {
  const secret = randomString(random, 40);
  const record = await store.tokens.add({ ...input, secretHash: sha256(secret) }, now);
  return { token: `sl_${record.id.slice('tok_'.length)}_${secret}`, record };
}

/** The id of the token's row (`tok_…`), or null when `token` does not look like a personal token. */
export function tokenIdOf(token: string): string | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? `tok_${match[1]}` : null;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The caller a personal token acts as. 401 `invalid_token` when unknown, revoked or expired; 403
 * `token_record_left` when its person left its team (or the team is gone); 403 `first_step` before the person
 * agreed to the terms.
 */
export async function callerOfToken(store: Store, token: string | null, now: Date, publicUrl: string): Promise<Caller> {
  const { caller, firstStep } = await tokenHolder(store, token, now, publicUrl);
  if (firstStep) throw firstStep;
  return caller;
}

/**
 * As {@link callerOfToken}, but a person who has not agreed to the terms yet is still named: `firstStep` is then the
 * 403 `first_step` to answer, unless the surface can send the person to `PUBLIC_URL/welcome` instead (/mcp, to a
 * client that follows links).
 */
export async function tokenHolder(
  store: Store,
  token: string | null,
  now: Date,
  publicUrl: string,
): Promise<{ caller: Caller; firstStep: ApiError | null }> {
  const match = token === null ? null : TOKEN_PATTERN.exec(token);
  if (!match) throw apiError.invalidToken(token === null ? 'Send Authorization: Bearer <token>.' : undefined);
  const grant = await store.tokens.grant(`tok_${match[1]}`);
  const given = sha256(match[2]!);
  if (!grant || !timingSafeEqual(grant.secretHash, given)) throw apiError.invalidToken();
  if (grant.revokedAt !== null || (grant.expiresAt !== null && Date.parse(grant.expiresAt) <= now.getTime())) {
    throw apiError.invalidToken();
  }
  if (!grant.personInTeam) throw apiError.tokenRecordLeft();
  const caller = {
    personId: grant.personId,
    scopes: grant.scopes === null ? null : new Set(grant.scopes),
    recordTeamId: grant.limited ? grant.teamId : null,
  };
  if (!grant.personAgreedTerms) {
    return { caller, firstStep: apiError.firstStep(`Agree to the terms at ${publicUrl}/welcome first; the token works from then on.`) };
  }
  void store.tokens.touch(grant.id, now);
  return { caller, firstStep: null };
}
