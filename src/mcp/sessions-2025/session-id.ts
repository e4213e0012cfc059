import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { Clock } from '../../shared/clock.js';

/**
 * How long a session id works after the initialize that opened it, used or not. The id is no credential (every
 * request is authenticated on its own, and an id works only for the person who opened it), so its lifetime bounds
 * only how long the service trusts what the client declared, and how long an ended session must be remembered.
 */
export const SESSION_LIFETIME_MS = 24 * 60 * 60_000;

/** The longest client name or version a session keeps; enough for any real client, and the id stays short. */
const MAX_CLIENT_TEXT = 64;
/** The first byte of every id, so the format can change without misreading the ids already out. */
const HEADER = Buffer.from([1]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** What a 2025-11-25 session holds, all of it carried by its id. */
export interface SessionClaims {
  personId: string;
  /** The protocol version initialize settled on. */
  protocolVersion: string;
  /** What the client declared, as sessionCapabilities keeps it (kept-capabilities.ts). */
  capabilities: ClientCapabilities;
  clientInfo: { name: string; version: string };
  /** When initialize opened the session (ms since the epoch, whole seconds). */
  issuedAt: number;
}

/**
 * Session ids that carry their session, so that any process of the service can serve any request of it. An id is
 * the claims sealed with AES-256-GCM under a key derived from the database's cursor secret, which every process
 * shares: the tag authenticates the claims as an HMAC would, and the encryption keeps the person's id and the
 * client's details out of the load balancers' and proxies' logs the header passes through. A fresh random nonce
 * makes every id unique. Base64url: visible ASCII only, as the revision requires of `Mcp-Session-Id`.
 */
export class SessionIds {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly clock: Clock,
  ) {
    // A key of its own, so a session id can never pass for a paging cursor or a request state.
    this.key = createHmac('sha256', secret).update('mcp session id').digest();
  }

  /** The claims as they will be read back: client texts cut short, the time in whole seconds. */
  claims(personId: string, protocolVersion: string, capabilities: ClientCapabilities, clientInfo: { name: string; version: string }): SessionClaims {
    return {
      personId,
      protocolVersion,
      capabilities,
      clientInfo: { name: clientInfo.name.slice(0, MAX_CLIENT_TEXT), version: clientInfo.version.slice(0, MAX_CLIENT_TEXT) },
      issuedAt: Math.floor(this.clock.now().getTime() / 1000) * 1000,
    };
  }

  issue(claims: SessionClaims): string {
    const { personId, protocolVersion, capabilities, clientInfo, issuedAt } = claims;
    const plain = JSON.stringify([personId, protocolVersion, issuedAt / 1000, capabilities, clientInfo.name, clientInfo.version]);
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce).setAAD(HEADER);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([HEADER, nonce, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The claims of an id this service issued, unaltered and not expired; null for anything else. */
  read(id: string): SessionClaims | null {
    const raw = Buffer.from(id, 'base64url');
    // Buffer.from skips what is not base64url, so an id is taken only if it is exactly what issue() wrote.
    if (raw.length < HEADER.length + NONCE_BYTES + TAG_BYTES || raw.toString('base64url') !== id) return null;
    if (!raw.subarray(0, HEADER.length).equals(HEADER)) return null;
    const nonce = raw.subarray(HEADER.length, HEADER.length + NONCE_BYTES);
    const sealed = raw.subarray(HEADER.length + NONCE_BYTES, raw.length - TAG_BYTES);
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(HEADER).setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
    // Only this service can seal, so what opens is what issue() wrote.
    const [personId, protocolVersion, issuedSeconds, capabilities, name, version] = JSON.parse(plain) as [string, string, number, ClientCapabilities, string, string];
    const claims = { personId, protocolVersion, capabilities, clientInfo: { name, version }, issuedAt: issuedSeconds * 1000 };
    return this.clock.now().getTime() < expiresAt(claims).getTime() ? claims : null;
  }
}

export function expiresAt(claims: SessionClaims): Date {
  return new Date(claims.issuedAt + SESSION_LIFETIME_MS);
}

/** How the database names a session: its id's SHA-256, a fixed 32 bytes whatever the id's length. */
export function sessionKey(id: string): Buffer {
  return createHash('sha256').update(id).digest();
}
