import { randomBytes } from 'node:crypto';
import { sha256 } from './secrets.js';

/**
 * One-time set-password links, `PUBLIC_URL/set-password/<token>`, which the operator CLI prints for a person made
 * without a password (or whose password it resets). The token is 256 random bits; only its SHA-256 is stored, and a
 * link is found by that hash alone, so nothing secret is ever compared byte by byte.
 */
export const PASSWORD_LINK_HOURS = 24;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The path under PUBLIC_URL; a path segment rather than a query, so it is a page of its own (and a reserved word). */
export const SET_PASSWORD_PATH = '/set-password';

export interface NewPasswordLink {
  url: string;
  tokenHash: Buffer;
  expiresAt: Date;
}

/** A fresh one-time token (set-password and sign-up links): 256 random bits, and the SHA-256 kept of it. */
export function oneTimeToken(): { token: string; tokenHash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: sha256(token) };
}

/** A fresh link for `publicUrl`, working for 24 hours from `now`. */
export function newPasswordLink(publicUrl: string, now: Date): NewPasswordLink {
  const { token, tokenHash } = oneTimeToken();
  return {
    url: `${publicUrl}${SET_PASSWORD_PATH}/${token}`,
    tokenHash,
    expiresAt: new Date(now.getTime() + PASSWORD_LINK_HOURS * 3_600_000),
  };
}

/** The stored form of a one-time token; null for anything that cannot be one of ours (so it is never looked up). */
export function passwordLinkHashOrNull(token: string): Buffer | null {
  return TOKEN.test(token) ? sha256(token) : null;
}
