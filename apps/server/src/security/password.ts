import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * scrypt runs on libuv's thread pool (4 threads by default), the same pool that serves every file read and write: a
 * flood of sign-ins would queue image reads and uploads behind hashes (issue 20). At most `concurrency` hashes run at
 * once, so the other threads stay free for file I/O; sign-in checks beyond `queue` waiting ones are refused at once
 * (1003, "busy, retry") instead of piling up. Setting a password (admins, seeds) waits its turn without a cap.
 */
const limits = { concurrency: 2, queue: 16 };
let running = 0;
const waiting: (() => void)[] = [];
/** Test probe: the most hashes seen running at once since the last reset. */
export const hashingStats = { maxRunning: 0, refused: 0 };

export function configurePasswordHashing(options: { concurrency: number; queue: number }) {
  limits.concurrency = options.concurrency;
  limits.queue = options.queue;
}

export class HashingBusyError extends Error {
  constructor() {
    super('password hashing is busy');
    this.name = 'HashingBusyError';
  }
}

async function limited<T>(work: () => Promise<T>, refuseWhenBusy: boolean): Promise<T> {
  if (running >= limits.concurrency) {
    if (refuseWhenBusy && waiting.length >= limits.queue) {
      hashingStats.refused++;
      throw new HashingBusyError();
    }
    // The slot is handed over by the one that ends (running stays counted), so nobody can slip in between.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  hashingStats.maxRunning = Math.max(hashingStats.maxRunning, running);
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const KEY_LENGTH = 64;
const R = 8;
const P = 1;

// scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is too small for N = 2^17.
const maxmemFor = (n: number) => 256 * n * R;

/** Hashes as `scrypt$logN$r$p$salt$key` so verification uses the parameters the hash was made with. */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = crypto.randomBytes(16);
  const n = 2 ** logN;
  const key = await limited(() => scrypt(password, salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: maxmemFor(n) }), false);
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Throws HashingBusyError when too many checks are already waiting (the caller answers "busy, retry"). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const n = 2 ** Number(logN);
  const expected = Buffer.from(key, 'base64url');
  const actual = await limited(
    () =>
      scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
        N: n,
        r: Number(r),
        p: Number(p),
        maxmem: 256 * n * Number(r),
      }),
    true,
  );
  return crypto.timingSafeEqual(actual, expected);
}

/** 256 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
