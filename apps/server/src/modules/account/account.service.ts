import { ResultCode, type ChangePasswordBody } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import { checkPassword, type AuthContext } from '../auth/auth.service.ts';
import * as throttle from '../auth/login-throttle.repository.ts';
import { hashPassword } from '../../security/password.ts';
import { PAIR_WINDOW_MS, clientAddress, pairWaitMs, throttleKey } from '../auth/throttle-policy.ts';
import { endOpenSessionsOfUser } from '../users/sessions.repository.ts';
import { updateUser } from '../users/users.repository.ts';

export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly scryptLogN: number,
  ) {}

  /**
   * Checks the current password, stores the new one and ends the user's other sessions (this one stays). Wrong
   * current passwords are throttled like sign-ins, per user and client address (throttle-policy.ts): a stolen
   * session must not become an unlimited password oracle.
   */
  async changePassword({ user, session }: AuthContext, body: ChangePasswordBody, ip?: string) {
    const { kysely } = this.db;
    const key = throttleKey('password', String(user.id), clientAddress(ip));
    const refuseIfThrottled = async (now: number) => {
      const wait = pairWaitMs(await throttle.recentFailures(kysely, key, now - PAIR_WINDOW_MS), now);
      if (wait > 0)
        throw new AppError(ResultCode.THROTTLED, 'throttledPassword', { seconds: Math.ceil(wait / 1000) }, 'password');
    };
    await refuseIfThrottled(this.clock());
    if (!(await checkPassword(body.password, user.password_hash, 'password'))) {
      const now = this.clock();
      await throttle.recordFailure(kysely, key, now);
      await refuseIfThrottled(now);
      throw new AppError(ResultCode.FAILED, 'wrongCurrentPassword', {}, 'password');
    }
    await throttle.clearFailures(kysely, key);
    if (body.newpassword === body.password) throw badParam('newpassword', 'reason.samePassword');
    const hash = await hashPassword(body.newpassword, this.scryptLogN);
    const now = this.clock();
    await this.db.kysely.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, { password_hash: hash, updated_at: now });
      await endOpenSessionsOfUser(trx, user.id, now, 'revoked', session.id);
    });
  }
}
