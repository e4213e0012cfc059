import { createHash } from 'node:crypto';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { randomString, type Random } from '../domain/random.js';

/** Lifetimes and limits of the authorization server (documented in docs/behaviour.md, "Assistants sign in"). */
export const CODE_LIFETIME_S = 5 * 60;
export const ACCESS_TOKEN_LIFETIME_S = 60 * 60;
export const REFRESH_TOKEN_LIFETIME_S = 30 * 24 * 60 * 60;
/** A registration nobody approved within this time is forgotten. */
export const UNUSED_CLIENT_MS = 24 * 60 * 60 * 1000;
/** Registrations per client address per hour. */
export const REGISTRATIONS_PER_HOUR = 60;
/** Client ID metadata documents: fetches a minute, per client address and in all; see `clients.ts`. */
export const DOCUMENT_FETCHES_PER_ADDRESS_PER_MINUTE = 20;
export const DOCUMENT_FETCHES_PER_MINUTE = 100;
/** A document that could not be fetched or was refused is answered from memory this long. */
export const DOCUMENT_FAILURE_MEMORY_MS = 60_000;
/** Fetched documents of clients nobody approved are kept in memory only, at most this many. */
export const DOCUMENTS_IN_MEMORY = 500;

/**
 * Every address the OAuth pieces name, from PUBLIC_URL (which has no trailing slash). `issuer` is the one issuer
 * string, byte for byte, everywhere: metadata `issuer`, PRM `authorization_servers` and `iss` on redirects.
 */
export interface OAuthAddresses {
  issuer: string;
  /** The protected resource: `PUBLIC_URL/mcp`. */
  resource: string;
  /** Its protected resource metadata (RFC 9728), path form; also served at the root form. */
  resourceMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
}

export function oauthAddresses(publicUrl: string): OAuthAddresses {
  const issuer = publicUrl.replace(/\/+$/, '');
  return {
    issuer,
    resource: `${issuer}/mcp`,
    resourceMetadata: getOAuthProtectedResourceMetadataUrl(new URL(`${issuer}/mcp`)),
    authorize: `${issuer}/authorize`,
    token: `${issuer}/token`,
    register: `${issuer}/register`,
    revoke: `${issuer}/revoke`,
  };
}

/** RFC 8707 `resource` as clients send it: ours when equal to `resource` but for one trailing slash. */
export function isOurResource(given: string, resource: string): boolean {
  return given === resource || given === `${resource}/`;
}

/** Token kinds are told apart by prefix: `sla_` access, `slr_` refresh, `slcs_` client secret. */
export const ACCESS_PREFIX = 'sla_';
export const REFRESH_PREFIX = 'slr_';
export const CLIENT_SECRET_PREFIX = 'slcs_';

/** A new secret: the prefix and 48 characters of A-Z a-z 0-9 (285 bits). */
export function newSecret(random: Random, prefix = ''): string {
  return prefix + randomString(random, 48);
}

/** Codes, tokens and client secrets are random enough that a plain SHA-256 is the right way to keep them. */
export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
