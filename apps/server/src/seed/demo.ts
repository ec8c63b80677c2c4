import type { Role } from '@ipp/contracts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { hashPassword } from '../security/password.ts';
import { findTeamByName, insertTeam } from '../modules/teams/teams.repository.ts';
import { insertUser } from '../modules/users/users.repository.ts';

export const DEMO_TEAM = 'Demo Team 演示团队';
export const DEMO_PASSWORD = 'demo123';

export interface DemoAccount {
  account: string;
  name: string;
  role: Role;
  demo: boolean;
}

/** One administrator, one user and the read-only demo account, all in the demo team. */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  { account: 'demo_admin', name: 'Demo Team Admin', role: 'administrator', demo: false },
  { account: 'demo_user', name: 'Demo User', role: 'user', demo: false },
  { account: 'demo', name: 'Demo (read-only)', role: 'user', demo: true },
];

/** Adds the demo team and its accounts once; later starts find the team and leave everything as it is. */
export async function seedDemo(db: Db, clock: Clock, logN: number): Promise<{ created: boolean }> {
  if (await findTeamByName(db.kysely, DEMO_TEAM)) return { created: false };
  const hash = await hashPassword(DEMO_PASSWORD, logN);
  const now = clock();
  await db.kysely.transaction().execute(async (trx) => {
    const teamId = await insertTeam(trx, DEMO_TEAM, now);
    for (const a of DEMO_ACCOUNTS) {
      await insertUser(trx, {
        account: a.account,
        name: a.name,
        password_hash: hash,
        phone: '',
        email: '',
        group_id: teamId,
        role: a.role,
        avatar: '',
        is_demo: a.demo ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
    }
  });
  return { created: true };
}
