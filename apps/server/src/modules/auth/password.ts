import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const KEY_LENGTH = 64;
const R = 8;
const P = 1;

// scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is too small for N = 2^17.
const maxmemFor = (n: number) => 256 * n * R;

/** Hashes as `scrypt$logN$r$p$salt$key` so verification uses the parameters the hash was made with. */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = crypto.randomBytes(16);
  const n = 2 ** logN;
  const key = await scrypt(password, salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: maxmemFor(n) });
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const n = 2 ** Number(logN);
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: n,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * n * Number(r),
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** 256 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
