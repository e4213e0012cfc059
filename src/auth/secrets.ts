import * as crypto from 'node:crypto';
import { randomString, type Random } from '../domain/random.js';

/** Token kinds are told apart by prefix: `sla_` access, `slr_` refresh, `slcs_` client secret. */
export const ACCESS_PREFIX = 'sla_';
export const REFRESH_PREFIX = 'slr_';
export const CLIENT_SECRET_PREFIX = 'slcs_';

/** A new secret: the prefix and 48 characters of A-Z a-z 0-9 (285 bits). */
export function newSecret(random: Random, prefix = ''): string {
  return prefix + randomString(random, 48);
}

// crypto.hash (Node 20.12 and later) hashes in one call without making a Hash object: 1.2 to 2 times as fast in
// runs on a shared machine, and every API call hashes its token. Older Node 20 releases, which package.json still
// allows, have no such export.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

/** Codes, tokens and client secrets are random enough that a plain SHA-256 is the right way to keep them. */
export function sha256(text: string): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
}
