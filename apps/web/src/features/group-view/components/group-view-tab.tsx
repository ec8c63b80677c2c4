import { App, Empty, Flex, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { useUserInfo } from '@/api/get-user-info';
import { LoadFailed } from '@/components/load-failed';
import { useSession } from '@/hooks/use-session';
import { useGroupView } from '../api/get-group-view';
import { useSaveGroupView } from '../api/save-group-view';
import { StationChecklist } from './station-checklist';

/**
 * "Select IPP" (the user config of spec §3): the stations of a team the signed-in user follows. A
 * superadmin picks the team (starting from the one it chose last); everyone else works in their own.
 */
export function GroupViewTab({ onSaved }: { onSaved?: () => void } = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { role } = useSession();
  const me = useUserInfo().data;
  const isSuperadmin = role === 'superadmin';
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const view = useGroupView(isSuperadmin ? picked : undefined);
  const teams = useTeams(ALL_TEAMS, { enabled: isSuperadmin });
  const teamId = isSuperadmin ? (picked ?? view.data?.group_id ?? undefined) : (view.data?.group_id ?? me?.group_id ?? undefined);
  // Only a superadmin names a team; the server keeps everyone else in their own.
  const stations = useIpps(
    { group_id: isSuperadmin ? teamId : undefined, page: 1, limit: ALL_IPPS_LIMIT },
    { enabled: teamId !== undefined },
  );
  const save = useSaveGroupView();

  const submit = (ids: number[]) => {
    if (teamId === undefined) return;
    save.mutate(
      { group_id: teamId, ids },
      {
        onSuccess: () => {
          void message.success(t('messages.saveSuccess'));
          onSaved?.();
        },
      },
    );
  };

  let body;
  if (view.isError) {
    body = <LoadFailed error={view.error} onRetry={() => void view.refetch()} />;
  } else if (view.isPending && teamId === undefined) {
    body = <Spin description={t('common.loading')} />;
  } else if (teamId === undefined) {
    body = (
      <Empty description={isSuperadmin ? t('groupView.pickTeam') : t('groupView.noTeam')} data-testid="group-view-no-team" />
    );
  } else if (stations.isError) {
    body = <LoadFailed error={stations.error} onRetry={() => void stations.refetch()} />;
  } else if (view.isPending || stations.isPending || stations.isPlaceholderData) {
    body = <Spin description={t('common.loading')} />;
  } else if (stations.data.items.length === 0) {
    body = <Empty description={t('groupView.empty')} data-testid="group-view-empty" />;
  } else {
    body = (
      <StationChecklist
        // A new team or a fresh answer from the server starts the ticks again.
        key={`${teamId}:${view.dataUpdatedAt}`}
        stations={stations.data.items}
        initial={view.data.loc.map((station) => station.id)}
        saving={save.isPending}
        onSave={submit}
      />
    );
  }

  return (
    <Flex vertical gap="middle">
      <Typography.Text type="secondary">{t('groupView.hint')}</Typography.Text>
      <Flex align="center" gap="small">
        <Typography.Text>{t('groupView.team')}</Typography.Text>
        {isSuperadmin ? (
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            style={{ minWidth: 220 }}
            placeholder={t('groupView.pickTeam')}
            loading={teams.isPending}
            value={teamId}
            onChange={setPicked}
            options={teams.data?.items.map((team) => ({ value: team.id, label: team.name }))}
            data-testid="group-view-team"
          />
        ) : (
          <Typography.Text strong data-testid="group-view-team">
            {me?.group?.name ?? '—'}
          </Typography.Text>
        )}
      </Flex>
      {body}
    </Flex>
  );
}
