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
  // Times of another cost (a test's app before this one) say nothing about this one's hashes.
  recentRunsMs.length = 0;
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

/** Runs a sign-in check (real or pretended) as its name's one check in flight, refused when busy (refuseIfBusy). */
async function holdingName<T>(turn: Turn | null, work: () => Promise<T>): Promise<T> {
  if (turn) refuseIfBusy(turn);
  if (turn?.key !== undefined) inFlight.add(turn.key);
  try {
    return await work();
  } finally {
    if (turn?.key !== undefined) inFlight.delete(turn.key);
  }
}

function limited<T>(work: () => Promise<T>, turn: Turn | null): Promise<T> {
  return holdingName(turn, async () => {
    if (running >= limits.concurrency) {
      // The slot is handed over by the one that ends (running stays counted), so nobody can slip in between.
      await new Promise<void>((resolve) => (turn?.trusted ? trustedWaiting : waiting).push(resolve));
    } else {
      running++;
    }
    hashingStats.maxRunning = Math.max(hashingStats.maxRunning, running);
    const started = performance.now();
    try {
      return await work();
    } finally {
      noteRunMs(performance.now() - started);
      const next = trustedWaiting.shift() ?? waiting.shift();
      if (next) next();
      else running--;
    }
  });
}

/** How long the last hashes took to compute (queue wait not included). */
const recentRunsMs: number[] = [];
const RECENT_RUNS = 64;

function noteRunMs(ms: number) {
  recentRunsMs.push(ms);
  if (recentRunsMs.length > RECENT_RUNS) recentRunsMs.shift();
}

// Not the seeded generator (lib/random.ts): this draw hides timing and must not replay.
const sampleRunMs = () => (recentRunsMs.length === 0 ? 0 : recentRunsMs[crypto.randomInt(recentRunsMs.length)]!);

/** What a check entering the untrusted lane now would wait for its turn, estimated from the queue and recent hashes. */
function estimatedWaitMs(): number {
  if (running < limits.concurrency) return 0;
  const ahead = trustedWaiting.length + waiting.length;
  let total = 0;
  // The running ones are half done on average; each one ahead then takes a hash on one of `concurrency` slots.
  for (let i = 0; i < ahead + 1; i++) total += sampleRunMs();
  return (total - sampleRunMs() / 2) / limits.concurrency;
}

/**
 * Answers "wrong password" for an account that does not exist without computing a hash: it takes the same turn a real
 * check would (refused when the name has a check in flight or the queue is full) and lasts as long as a real check
 * entering the queue now would: the wait the queue would give it, estimated, plus a hash's time drawn from the recent
 * ones. Timing tells no more than the real checks' spread.
 */
export function pretendToVerify(turn: Turn): Promise<false> {
  return holdingName(turn, async () => {
    await new Promise((resolve) => setTimeout(resolve, estimatedWaitMs() + sampleRunMs()));
    return false as const;
  });
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
  await hashPassword(crypto.randomBytes(16).toString('hex'), logN);
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
  return crypto.timingSafeEqual(actual, expected);
}

/** 256 random bits, URL-safe. */
export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
