import crypto from 'node:crypto';

/**
 * Sign-in and password-check throttling (issue 20; docs: "Throttling" in decisions). Failures are counted per
 * (account, client address) and per client address over all accounts, never per account alone: an attacker elsewhere
 * cannot lock the real owner out, because failures from one address do not block a right password from another.
 *
 * - Account + address: 5 failures are free; the 5th and each later one within 24 hours locks that pair for
 *   30 s × 2^(n−5), at most 15 minutes, counted from the last failure (30 s, 1, 2, 4, 8, 15, 15 … minutes).
 * - Address over all accounts: 20 failures within 15 minutes refuse every sign-in from that address until the oldest
 *   of them is 15 minutes old (a spray over many account names; shared NAT users are the price, see decisions).
 * - A success clears its pair's count (not the address's: one valid account must not reset a spray's count).
 * - Account over all addresses (issue 37, against guessing from many addresses): 10 failures within 24 hours are free;
 *   after that, attempts that are not trusted wait 30 s after the account's last failure, twice as long after each 10
 *   more, at most 15 minutes. Trusted attempts (from an address the account signed in from within 30 days, or by a
 *   holder of one of its open sessions) are never held by this limit, so nobody can lock the owner out with it. A
 *   success clears nothing of this count (a guesser must not get a fresh budget when the owner signs in).
 * Refused attempts are answered before any password hash is computed, so they cost no scrypt.
 */
export const PAIR_FREE_FAILURES = 5;
export const PAIR_WINDOW_MS = 24 * 3_600_000;
export const FIRST_LOCK_MS = 30_000;
export const MAX_LOCK_MS = 15 * 60_000;
export const ADDRESS_MAX_FAILURES = 20;
export const ADDRESS_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_FREE_FAILURES = 10;
export const ACCOUNT_WINDOW_MS = 24 * 3_600_000;
export const ACCOUNT_FIRST_WAIT_MS = 30_000;
/** The account's wait doubles after each this many further failures. */
export const ACCOUNT_FAILURES_PER_STEP = 10;
/** An address the account signed in from is trusted for it this long after that sign-in. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 3_600_000;
/** Rows older than this say nothing any more (known addresses: KNOWN_ADDRESS_MS). */
export const KEEP_FAILURES_MS = Math.max(PAIR_WINDOW_MS, ACCOUNT_WINDOW_MS);

/** `known` rows are not failures: each holds when the account last signed in from an address. */
export type ThrottleKind = 'login' | 'address' | 'password' | 'account' | 'known';

/** The stored key (login_failures.account, 64 characters at most): a kind and a hash of what it counts. */
export function throttleKey(kind: ThrottleKind, ...parts: string[]): string {
  return `${kind}:${crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40)}`;
}

/** ms until an account + address pair (or a user's password check from an address) may try again; 0 = now. */
export function pairWaitMs(failures: readonly number[], now: number): number {
  const n = failures.length;
  if (n < PAIR_FREE_FAILURES) return 0;
  const lock = Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** (n - PAIR_FREE_FAILURES));
  return Math.max(0, (failures[n - 1] ?? now) + lock - now);
}

/** ms until an address that failed for many accounts may try again; 0 = now. */
export function addressWaitMs(failures: readonly number[], now: number): number {
  if (failures.length < ADDRESS_MAX_FAILURES) return 0;
  const oldest = failures[failures.length - ADDRESS_MAX_FAILURES] ?? now;
  return Math.max(0, oldest + ADDRESS_WINDOW_MS - now);
}

/** ms until an attempt on an account that failed from many addresses may be made, unless it is trusted; 0 = now. */
export function accountWaitMs(failures: readonly number[], now: number): number {
  const n = failures.length;
  if (n < ACCOUNT_FREE_FAILURES) return 0;
  const steps = Math.floor((n - ACCOUNT_FREE_FAILURES) / ACCOUNT_FAILURES_PER_STEP);
  const wait = Math.min(MAX_LOCK_MS, ACCOUNT_FIRST_WAIT_MS * 2 ** steps);
  return Math.max(0, (failures[n - 1] ?? now) + wait - now);
}

/**
 * The address a limit is counted for: IPv4 as is (also when mapped into IPv6), IPv6 by its /64 network, since one
 * client usually holds a whole /64 and could otherwise take a fresh address for every attempt.
 */
export function clientAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
