import { PlusOutlined } from '@ant-design/icons';
import type { AlarmSilence } from '@ipp/contracts';
import { Button, Flex, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { ConfirmAction } from '@/components/confirm-action';
import { LoadFailed } from '@/components/load-failed';
import { TimeText } from '@/components/time-text';
import { WrapText } from '@/components/wrap-text';
import { useSession } from '@/hooks/use-session';
import { useAlarmSilences, useEndSilence } from '../api/silences';
import { SilenceModal } from './silence-modal';

/**
 * The team's silences running now and planned (maintenance windows), soonest end first: anyone of the team adds one
 * or ends one early (issue 40).
 */
export function SilenceList() {
  const { t } = useTranslation();
  const { role } = useSession();
  const superadmin = role === 'superadmin';
  const teams = useTeams(ALL_TEAMS, { enabled: superadmin });
  const [picked, setPicked] = useState<number | undefined>();
  const groupId = superadmin ? (picked ?? teams.data?.items[0]?.id) : undefined;
  const silences = useAlarmSilences(groupId);
  const end = useEndSilence();
  const [adding, setAdding] = useState(false);
  // "Planned" as of the list's own fetch (it refetches every minute).
  const now = silences.dataUpdatedAt;

  const columns: TableColumnsType<AlarmSilence> = [
    {
      title: t('alarms.silence.scope'),
      key: 'scope',
      render: (_, s) => (
        <Flex vertical>
          <WrapText>{s.site_name ?? t('alarms.allStations')}</WrapText>
          <Typography.Text type="secondary">{s.rule_name ?? t('alarms.silence.allRules')}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('alarms.silence.from'),
      dataIndex: 'starts_at',
      width: 210,
      render: (v: number) => (
        <Flex vertical align="start">
          <TimeText at={v} />
          {v > now && <Tag color="blue">{t('alarms.silence.planned')}</Tag>}
        </Flex>
      ),
    },
    { title: t('alarms.silence.until'), dataIndex: 'ends_at', width: 196, render: (v: number) => <TimeText at={v} /> },
    {
      title: t('alarms.silence.reason'),
      dataIndex: 'reason',
      render: (v: string, s) => (
        <Flex vertical>
          <WrapText>{v}</WrapText>
          <Typography.Text type="secondary">{s.created_by_name}</Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 110,
      fixed: 'right',
      render: (_, s) => (
        <ConfirmAction title={t('alarms.silence.endConfirm')} onConfirm={() => end.mutateAsync(s.id)}>
          <Button size="small" data-testid={`alarm-silence-end-${s.id}`}>
            {s.starts_at > now ? t('alarms.silence.drop') : t('alarms.silence.end')}
          </Button>
        </ConfirmAction>
      ),
    },
  ];

  return (
    <Flex vertical gap="middle">
      <Typography.Text type="secondary">{t('alarms.silence.hint')}</Typography.Text>
      <Flex gap="small" wrap align="center">
        {superadmin && (
          <Select<number>
            value={groupId}
            onChange={setPicked}
            loading={teams.isLoading}
            aria-label={t('alarms.team')}
            placeholder={t('alarms.team')}
            style={{ width: 220 }}
            options={(teams.data?.items ?? []).map((team) => ({ value: team.id, label: team.name }))}
          />
        )}
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          disabled={superadmin && groupId === undefined}
          data-testid="alarm-silence-add"
        >
          {t('alarms.silence.new')}
        </Button>
      </Flex>
      {silences.isError ? (
        <LoadFailed error={silences.error} onRetry={() => void silences.refetch()} />
      ) : (
        <Table<AlarmSilence>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={silences.data}
          loading={silences.isLoading}
          pagination={false}
          scroll={silences.data?.length ? { x: 900 } : undefined}
          locale={{ emptyText: t('alarms.silence.none') }}
          data-testid="alarm-silence-table"
        />
      )}
      {adding && <SilenceModal groupId={groupId} onClose={() => setAdding(false)} />}
    </Flex>
  );
}
