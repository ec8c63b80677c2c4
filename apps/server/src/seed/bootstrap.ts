import crypto from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { hashPassword } from '../security/password.ts';
import { findUserByAccount, insertUser } from '../modules/users/users.repository.ts';

export const ADMIN_ACCOUNT = 'admin';

/**
 * Makes sure the superadmin account exists. Returns the generated password when one had to be made
 * (printed once by main.ts), or null when the account already existed or ADMIN_PASSWORD was given.
 */
export async function ensureSuperadmin(db: Db, clock: Clock, logN: number, adminPassword?: string) {
  if (await findUserByAccount(db.kysely, ADMIN_ACCOUNT)) return { created: false, generatedPassword: null };
  const password = adminPassword ?? crypto.randomBytes(9).toString('base64url');
  const now = clock();
  await insertUser(db.kysely, {
    account: ADMIN_ACCOUNT,
    name: 'Administrator',
    password_hash: await hashPassword(password, logN),
    phone: '',
    email: '',
    group_id: null,
    role: 'superadmin',
    avatar: '',
    is_demo: 0,
    created_at: now,
    updated_at: now,
  });
  return { created: true, generatedPassword: adminPassword ? null : password };
}
