import { Card, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useUserInfo } from '@/api/get-user-info';
import { useSettings } from '@/api/get-settings';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { LoadFailed } from '@/components/load-failed';
import { useSession } from '@/hooks/use-session';
import { useUser } from '../api/get-user';
import { UserForm } from '../components/user-form';

const USER_LIST_PATH = '/manage/user';

/** ?id=N edits that user; no id creates one. */
function parseId(raw: string | null): number | null | 'invalid' {
  if (raw === null || raw === '') return null;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : 'invalid';
}

export function UserEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { role } = useSession();
  const id = parseId(params.get('id'));
  const user = useUser(typeof id === 'number' ? id : null);
  const teams = useTeams(ALL_TEAMS);
  // Silent: without the limits the form still shows the head counts, and the server enforces them.
  const settings = useSettings({ silent: true });
  const me = useUserInfo();
  const backToList = () => void navigate(USER_LIST_PATH);

  const title = typeof id === 'number' ? t('users.editTitle') : t('users.addTitle');
  let body;
  if (id === 'invalid') {
    body = <Result status="404" title={t('users.notFound')} />;
  } else if (typeof id === 'number' && user.isPending) {
    body = <Spin description={t('common.loading')} />;
  } else if (typeof id === 'number' && user.isError) {
    body = <LoadFailed error={user.error} onRetry={() => void user.refetch()} />;
  } else {
    body = (
      <UserForm
        key={user.data?.id ?? 'new'}
        user={user.data}
        teams={teams.data?.items ?? []}
        teamsLoading={teams.isPending}
        settings={settings.data ?? null}
        viewerRole={role}
        // Whoever edits their own role or team sees it at once in the header and the guard.
        onSaved={(saved) => {
          if (saved.id === me.data?.id) void me.refetch();
          backToList();
        }}
        onCancel={backToList}
      />
    );
  }
  return <Card title={title}>{body}</Card>;
}
