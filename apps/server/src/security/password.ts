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
 *
 * Fair turns (issue 37): a check names whose it is (`Turn.key`, the account name): one name has at most one check in
 * flight, so a flood on one account holds one place, not the queue. A check marked `trusted` (from an address the
 * account signed in from, or by a holder of its session) waits in a lane of its own that is served first and is not
 * counted against `queue`. A sign-in of an account that does not exist is answered by `pretendToVerify`, which takes
 * the same turns and refusals by name and queue but computes nothing (see decisions, "Issue 37: sign-in flood").
 */
const limits = { concurrency: 2, queue: 16 };
let running = 0;
const waiting: (() => void)[] = [];
const trustedWaiting: (() => void)[] = [];
/** Names with a check in flight (real or pretended). */
const inFlight = new Set<string>();
/** Test probe: the most hashes seen running at once since the last reset; refusals; checks that ran scrypt. */
export const hashingStats = { maxRunning: 0, refused: 0, verified: 0 };

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

/** Whose check this is: `key` names the account (one check per name in flight); `trusted` takes the first lane. */
export interface Turn {
  key?: string;
  trusted?: boolean;
}

/** Refuses a sign-in check the queue cannot take now: its name already has one in flight, or its lane is full. */
function refuseIfBusy(turn: Turn) {
  const full = running >= limits.concurrency && !turn.trusted && waiting.length >= limits.queue;
  if ((turn.key !== undefined && inFlight.has(turn.key)) || full) {
    hashingStats.refused++;
    throw new HashingBusyError();
  }
}

async function limited<T>(work: () => Promise<T>, turn: Turn | null): Promise<T> {
  if (turn) refuseIfBusy(turn);
  if (turn?.key !== undefined) inFlight.add(turn.key);
  try {
    if (running >= limits.concurrency) {
      // The slot is handed over by the one that ends (running stays counted), so nobody can slip in between.
      await new Promise<void>((resolve) => (turn?.trusted ? trustedWaiting : waiting).push(resolve));
    } else {
      running++;
    }
    hashingStats.maxRunning = Math.max(hashingStats.maxRunning, running);
    try {
      return await work();
    } finally {
      const next = trustedWaiting.shift() ?? waiting.shift();
      if (next) next();
      else running--;
    }
  } finally {
    if (turn?.key !== undefined) inFlight.delete(turn.key);
  }
}

/** How long the last sign-in checks took, queue included: a pretended check takes as long as one of them. */
const recentChecksMs: number[] = [];
const RECENT_CHECKS = 64;

function noteCheckMs(ms: number) {
  recentChecksMs.push(ms);
  if (recentChecksMs.length > RECENT_CHECKS) recentChecksMs.shift();
}

/**
 * Answers "wrong password" for an account that does not exist without computing a hash: it takes the same turn a real
 * check would (refused when the name has a check in flight or the queue is full) and lasts as long as a real check
 * picked at random from the recent ones, queue wait included, so timing tells no more than the real checks' spread.
 */
export async function pretendToVerify(turn: Turn): Promise<false> {
  refuseIfBusy(turn);
  if (turn.key !== undefined) inFlight.add(turn.key);
  try {
    const ms = recentChecksMs[Math.floor(Math.random() * recentChecksMs.length)] ?? 0;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return false;
  } finally {
    if (turn.key !== undefined) inFlight.delete(turn.key);
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
  const key = await limited(() => scrypt(password, salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: maxmemFor(n) }), null);
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Times one hash at start, so the first pretended checks (before any real one) last as long as a real one. */
export async function calibratePasswordChecks(logN: number): Promise<void> {
  const started = performance.now();
  await hashPassword(crypto.randomBytes(16).toString('hex'), logN);
  noteCheckMs(performance.now() - started);
}

/**
 * Throws HashingBusyError when too many checks are already waiting, or `turn`'s name has one in flight (the caller
 * answers "busy, retry").
 */
export async function verifyPassword(password: string, stored: string, turn: Turn = {}): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const n = 2 ** Number(logN);
  const expected = Buffer.from(key, 'base64url');
  const started = performance.now();
  const actual = await limited(
    () =>
      scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
        N: n,
        r: Number(r),
        p: Number(p),
        maxmem: 256 * n * Number(r),
      }),
    turn,
  );
  hashingStats.verified++;
  noteCheckMs(performance.now() - started);
  return crypto.timingSafeEqual(actual, expected);
}

/** 256 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
