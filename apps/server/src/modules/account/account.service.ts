import { ResultCode, type ChangePasswordBody } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import type { AuthContext } from '../auth/auth.service.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { endOpenSessionsOfUser } from '../auth/sessions.repository.ts';
import { updateUser } from '../users/users.repository.ts';

export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly scryptLogN: number,
  ) {}

  /** Checks the current password, stores the new one and ends the user's other sessions (this one stays). */
  async changePassword({ user, session }: AuthContext, body: ChangePasswordBody) {
    if (!(await verifyPassword(body.password, user.password_hash))) {
      throw new AppError(ResultCode.FAILED, 'wrongCurrentPassword', {}, 'password');
    }
    if (body.newpassword === body.password) throw badParam('newpassword', 'reason.samePassword');
    const hash = await hashPassword(body.newpassword, this.scryptLogN);
    const now = this.clock();
    await this.db.kysely.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, { password_hash: hash, updated_at: now });
      await endOpenSessionsOfUser(trx, user.id, now, 'revoked', session.id);
    });
  }
}
