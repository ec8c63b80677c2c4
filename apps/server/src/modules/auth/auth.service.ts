import { ComponentSizeSchema, LANGS, ResultCode, type Lang, type LoginResult, type UserInfo } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import { findUserByAccount, findUserById, lockUser, type UserRow } from '../users/users.repository.ts';
import * as throttle from './login-throttle.repository.ts';
import { HashingBusyError, hashToken, newToken, pretendToVerify, verifyPassword, type Turn } from '../../security/password.ts';
import {
  ACCOUNT_WINDOW_MS,
  ADDRESS_WINDOW_MS,
  KEEP_FAILURES_MS,
  KNOWN_ADDRESS_MS,
  PAIR_WINDOW_MS,
  accountWaitMs,
  addressWaitMs,
  clientAddress,
  pairWaitMs,
  throttleKey,
} from './throttle-policy.ts';
import * as sessions from '../users/sessions.repository.ts';

/** last_seen_at is written at most this often, so a busy session does not write on every call. */
const TOUCH_INTERVAL_MS = 15 * 1000;

export interface AuthContext {
  user: UserRow;
  session: sessions.SessionRow;
}

export interface AuthServiceOptions {
  db: Db;
  clock: Clock;
  /** Idle limit, from the system settings (it can change while the server runs). */
  idleMs: () => Promise<number>;
  maxAgeMs: number;
}

interface ThrottleKeys {
  pair: string;
  address: string;
  account: string;
  known: string;
}

export class AuthService {
  constructor(private readonly o: AuthServiceOptions) {}

  /**
   * Signs in from `ip` (the client address the throttle counts; see throttle-policy.ts). A `sessionToken` of an open session of
   * the same account makes the attempt trusted, as does an address the account signed in from lately.
   */
  async login(accountInput: string, password: string, ip?: string, sessionToken?: string): Promise<LoginResult> {
    const { kysely } = this.o.db;
    const account = accountInput.trim();
    const name = account.toLowerCase();
    const address = clientAddress(ip);
    const keys: ThrottleKeys = {
      pair: throttleKey('login', name, address),
      address: throttleKey('address', address),
      account: throttleKey('account', name),
      known: throttleKey('known', name, address),
    };
    const now = this.o.clock();
    const trusted = await this.trusted(keys, name, sessionToken, now);
    await this.refuseIfThrottled(keys, trusted, now);

    // An account that does not exist costs no hash: a pretended check takes the same turn and as long (password.ts).
    const user = await findUserByAccount(kysely, account);
    const turn: Turn = { key: `login:${name}`, trusted };
    const valid = await busyAsThrottled(
      () => (user ? verifyPassword(password, user.password_hash, turn) : pretendToVerify(turn)),
      'username',
    );
    if (!user || !valid) {
      await throttle.recordFailure(kysely, keys.pair, now);
      await throttle.recordFailure(kysely, keys.address, now);
      await throttle.recordFailure(kysely, keys.account, now);
      if (++this.failuresSincePrune >= 100) {
        this.failuresSincePrune = 0;
        await throttle.pruneFailures(kysely, now - KEEP_FAILURES_MS, now - KNOWN_ADDRESS_MS);
      }
      await this.refuseIfThrottled(keys, trusted, now);
      throw new AppError(ResultCode.FAILED, 'badLogin', {}, 'password');
    }

    const token = newToken();
    await kysely.transaction().execute(async (trx) => {
      if (this.o.db.dialect === 'postgres') {
        // Serialise concurrent sign-ins of one account so exactly one session stays open.
        await lockUser(trx, user.id);
      }
      await sessions.endOpenSessionsOfUser(trx, user.id, now, 'displaced');
      await sessions.insertSession(trx, user.id, hashToken(token), now);
      await throttle.clearFailures(trx, keys.pair);
      await throttle.markOnce(trx, keys.known, now);
    });
    await throttle.pruneFailures(kysely, now - KEEP_FAILURES_MS, now - KNOWN_ADDRESS_MS);
    return { token, role: user.role, name: user.name, demo: user.is_demo === 1 };
  }

  private failuresSincePrune = 0;

  /** Whether the per-account limit lets this attempt by: the account signed in from here lately, or `token` is its. */
  private async trusted(keys: ThrottleKeys, name: string, token: string | undefined, now: number): Promise<boolean> {
    if ((await throttle.recentFailures(this.o.db.kysely, keys.known, now - KNOWN_ADDRESS_MS)).length > 0) return true;
    if (!token) return false;
    const holder = await this.authenticate(token).catch(() => undefined);
    return holder?.user.account.toLowerCase() === name;
  }

  private async refuseIfThrottled(keys: ThrottleKeys, trusted: boolean, now: number) {
    const { kysely } = this.o.db;
    const wait = Math.max(
      pairWaitMs(await throttle.recentFailures(kysely, keys.pair, now - PAIR_WINDOW_MS), now),
      addressWaitMs(await throttle.recentFailures(kysely, keys.address, now - ADDRESS_WINDOW_MS), now),
      trusted ? 0 : accountWaitMs(await throttle.recentFailures(kysely, keys.account, now - ACCOUNT_WINDOW_MS), now),
    );
    if (wait > 0) throw new AppError(ResultCode.THROTTLED, 'throttled', { seconds: Math.ceil(wait / 1000) }, 'username');
  }

  /** Resolves a token to its user and session, ending it if it has expired. */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (!token || token.length > 256) throw new AppError(ResultCode.TOKEN, 'tokenInvalid');
    const { kysely } = this.o.db;
    const session = await sessions.findSessionByTokenHash(kysely, hashToken(token));
    if (!session) throw new AppError(ResultCode.TOKEN, 'tokenInvalid');
    if (session.ended_at !== null) {
      throw new AppError(ResultCode.TOKEN, session.end_reason === 'displaced' ? 'tokenDisplaced' : 'tokenInvalid');
    }
    const now = this.o.clock();
    const idleMs = await this.o.idleMs();
    const expiredBy =
      now - session.last_seen_at > idleMs ? 'idle' : now - session.created_at >= this.o.maxAgeMs ? 'expired' : null;
    if (expiredBy) {
      await sessions.endSession(kysely, session.id, now, expiredBy);
      throw new AppError(ResultCode.TOKEN, 'tokenInvalid');
    }
    const user = await findUserById(kysely, session.user_id);
    if (!user) throw new AppError(ResultCode.TOKEN, 'tokenInvalid');
    if (now - session.last_seen_at > TOUCH_INTERVAL_MS) await sessions.touchSession(kysely, session.id, now);
    return { user, session };
  }

  /**
   * Of these sessions, those still open, without counting as activity (the live event streams check their sessions this
   * way, all in one query: holding a page open must not keep a session from its idle end, which the console's own idle
   * sign-out ends).
   */
  openSessions(sessionIds: readonly number[]): Promise<Set<number>> {
    return sessions.openSessionIds(this.o.db.kysely, sessionIds, this.o.clock() - this.o.maxAgeMs);
  }

  async logout(ctx: AuthContext) {
    await sessions.endSession(this.o.db.kysely, ctx.session.id, this.o.clock(), 'logout');
  }

  async userInfo(user: UserRow): Promise<UserInfo> {
    const team = user.group_id === null ? undefined : await findTeamById(this.o.db.kysely, user.group_id);
    return {
      id: user.id,
      account: user.account,
      name: user.name,
      roles: [user.role],
      role: user.role,
      avatar: user.avatar,
      group_id: user.group_id,
      group: team ? { id: team.id, name: team.name } : null,
      demo: user.is_demo === 1,
      language: (LANGS as readonly (string | null)[]).includes(user.language) ? (user.language as Lang) : null,
      size: ComponentSizeSchema.safeParse(user.size).data ?? null,
    };
  }
}

/** verifyPassword, with "too many checks waiting" answered as 1003 "busy, retry" on `field`. */
export function checkPassword(password: string, hash: string, field: string): Promise<boolean> {
  return busyAsThrottled(() => verifyPassword(password, hash), field);
}

async function busyAsThrottled(check: () => Promise<boolean>, field: string): Promise<boolean> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof HashingBusyError) throw new AppError(ResultCode.THROTTLED, 'busy', { seconds: 5 }, field);
    throw error;
  }
}
