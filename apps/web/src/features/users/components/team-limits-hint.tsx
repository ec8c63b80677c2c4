import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TeamSeats } from '../utils/team-limits';

/** Spec §6 limits, shown as soon as a team is chosen so nobody meets them only on submit. */
export function TeamLimitsHint({ teamName, seats }: { teamName: string; seats: TeamSeats }) {
  const { t } = useTranslation();
  const { administrator, user } = seats;
  const text =
    administrator.max === null || user.max === null
      ? t('users.teamCounts', { team: teamName, admins: administrator.used, users: user.used })
      : t('users.teamLimits', {
          team: teamName,
          admins: administrator.used,
          maxAdmins: administrator.max,
          users: user.used,
          maxUsers: user.max,
        });
  const full = [administrator.full && t('role.administrator'), user.full && t('role.user')].filter(Boolean);
  return (
    <Alert
      type={full.length > 0 ? 'warning' : 'info'}
      showIcon
      title={text}
      description={full.length > 0 ? t('users.teamFull', { roles: full.join(t('common.listSeparator')) }) : undefined}
      data-testid="user-team-limits"
      role="status"
    />
  );
}
