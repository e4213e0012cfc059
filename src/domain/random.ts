import { randomBytes } from 'node:crypto';

/** Randomness comes in through this, so tests can make codes collide on purpose. */
export interface Random {
  /** `n` cryptographically random bytes. */
  bytes(n: number): Buffer;
}

export const cryptoRandom: Random = { bytes: (n) => randomBytes(n) };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of A-Z a-z 0-9, drawn without modulo bias (bytes ≥ 248 are rejected). */
export function randomString(random: Random, length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random.bytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
