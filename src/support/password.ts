import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: `scrypt$N$r$p$salt$hash`, salt and hash in base64url. The parameters travel with each hash, so
 * stronger ones can be adopted later without invalidating the hashes already stored. Shared by the CLI and the web
 * app's sign-in.
 */
const N = 16384;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
// scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is too close for comfort at N=16384, r=8.
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function derive(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // NFKC, so the same password typed on another keyboard or OS (composed vs decomposed accents) still matches.
    scrypt(password.normalize('NFKC'), salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, { N, r: R, p: P, maxmem: maxmemFor(N, R) });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * True when `password` matches a hash made by hashPassword; false for a wrong password and for a malformed or
 * implausible stored value (which must not be able to make us spend unbounded memory or time).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map((part) => (/^[0-9]{1,8}$/.test(part) ? Number(part) : NaN)) as [
    number,
    number,
    number,
  ];
  const powerOfTwo = n >= 2 && (n & (n - 1)) === 0;
  // At most 256 MiB and 16 passes: far above what we issue, far below what could take the process down.
  if (!powerOfTwo || !(r >= 1 && p >= 1 && p <= 16) || 128 * n * r > 256 * 2 ** 20) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (salt.length === 0 || expected.length < 16 || expected.length > 256) return false;
  const actual = await derive(password, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) });
  return timingSafeEqual(actual, expected);
}
