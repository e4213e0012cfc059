import type { OAuthClient, OAuthGrant } from './ports.js';

/**
 * How both adapters store OAuth values and the rules they apply to them: scopes as space-separated text, redirect
 * URIs and metadata as JSON text.
 */

/** How long used authorization codes are remembered, so a replay can still revoke what the code gave. */
export const USED_CODE_MEMORY_MS = 86_400_000;

export const scopesOf = (text: string): string[] => (text === '' ? [] : text.split(' '));

/** A client's row with its JSON columns still text. */
export type ClientRow = Omit<OAuthClient, 'redirectUris' | 'metadata'> & { redirectUris: string; metadata: string };

export function clientFrom(row: ClientRow): OAuthClient {
  return { ...row, redirectUris: JSON.parse(row.redirectUris) as string[], metadata: JSON.parse(row.metadata) as Record<string, unknown> };
}

/** A grant's row with its scopes and its client's redirect URIs still text. */
export type GrantRow = Omit<OAuthGrant, 'scopes' | 'redirectUris'> & { scopes: string; redirectUris: string };

export function grantFrom(row: GrantRow): OAuthGrant {
  return { ...row, scopes: scopesOf(row.scopes), redirectUris: JSON.parse(row.redirectUris) as string[] };
}

/**
 * saveCode's narrowing rule: given the scopes a person approved again, tells whether stored scopes (of a token
 * family or an unused code) hold one the new approval does not name, so that they must go now.
 */
export function beyondApproval(approved: readonly string[]): (stored: string) => boolean {
  const allowed = new Set(approved);
  return (stored) => scopesOf(stored).some((scope) => !allowed.has(scope));
}
