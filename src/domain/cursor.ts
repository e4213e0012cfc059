import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { apiError } from '../errors.js';

/** The most rows a page of a list holds (`limit`). */
export const MAX_PAGE_SIZE = 100;

/**
 * Opaque, signed paging cursors. A cursor names the operation and a digest of the other params it was made for,
 * so an `after` from another operation, other params (limit included) or a tampered one answers 400
 * `cursor_mismatch`.
 */
export class Cursors {
  constructor(private readonly secret: Buffer) {}

  /** Makes the `next` of a page whose last row has sort key `key`. */
  make(operation: string, params: unknown, key: unknown): string {
    const payload = Buffer.from(JSON.stringify({ o: operation, p: digest(params), k: key })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** Reads an `after`; null means the first page. */
  read<K>(operation: string, params: unknown, after: string | null | undefined): K | null {
    if (after === null || after === undefined) return null;
    const [payload, signature, extra] = after.split('.');
    if (!payload || !signature || extra !== undefined || !this.verify(payload, signature)) throw mismatch();
    let decoded: { o?: unknown; p?: unknown; k?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw mismatch();
    }
    if (decoded.o !== operation || decoded.p !== digest(params) || decoded.k === undefined) throw mismatch();
    return decoded.k as K;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }

  private verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function digest(params: unknown): string {
  return createHash('sha256').update(JSON.stringify(params)).digest('base64url').slice(0, 16);
}

function mismatch() {
  return apiError.cursorMismatch(undefined, 'after');
}
