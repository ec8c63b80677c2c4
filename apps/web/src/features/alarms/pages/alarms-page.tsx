import { DeleteOutlined, DownloadOutlined, EditOutlined, MutedOutlined, PlusOutlined } from '@ant-design/icons';
import type { Alarm, AlarmRule } from '@ipp/contracts';
import {
  App,
  Button,
  Card,
  Flex,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmAction } from '@/components/confirm-action';
import { LoadFailed } from '@/components/load-failed';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { useSession } from '@/hooks/use-session';
import { usePaging } from '@/hooks/use-paging';
import { PAGE_SIZE_OPTIONS } from '@/lib/paging';
import { useAlarmRules, useRemoveAlarmRule } from '../api/alarm-rules';
import { useAlarms, type AlarmFilter } from '@/api/get-alarms';
import { ALARM_PARAM } from '@/lib/alarm-path';
import { useFindAlarm } from '../api/find-alarm';
import { WrapText } from '@/components/wrap-text';
import { AcknowledgeModal } from '../components/acknowledge-modal';
import { AlarmDrawer } from '../components/alarm-drawer';
import { SilenceList } from '../components/silence-list';
import { ruleDetails, ruleText, valueText } from '../components/alarm-text';
import { SeverityTag, StateTag } from '@/components/alarm-tags';
import { AlarmExportModal } from '../components/alarm-export-modal';
import { RuleFormModal } from '../components/rule-form-modal';
import { WebhookCard } from '../components/webhook-card';
import { EmailChoiceCard } from '../components/email-choice-card';
import { TimeText } from '@/components/time-text';

const STATES = ['open', 'pending', 'active', 'acknowledged', 'cleared', 'all'] as const;

/** The alarm a link names (?alarm=<id>, as e-mails link), as a number; NaN when the parameter is no id. */
function linkedAlarmId(params: URLSearchParams): number | null {
  const value = params.get(ALARM_PARAM);
  if (value === null) return null;
  return /^[1-9]\d{0,15}$/.test(value) ? Number(value) : Number.NaN;
}

/** The same search parameters, naming this alarm or (null) none. */
function linking(params: URLSearchParams, id: number | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (id === null) next.delete(ALARM_PARAM);
  else next.set(ALARM_PARAM, String(id));
  return next;
}

function AlarmList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { role } = useSession();
  const [state, setState] = useState<AlarmFilter['state']>('open');
  const paging = usePaging();
  const [acknowledging, setAcknowledging] = useState<Alarm | null>(null);
  const [exporting, setExporting] = useState(false);
  const [params, setParams] = useSearchParams();
  const linkedId = linkedAlarmId(params);
  // The row last opened, kept while it leaves the list (cleared under the "open" filter).
  const [opened, setOpened] = useState<Alarm | null>(null);
  const alarms = useAlarms({ state, page: paging.page, limit: paging.limit });
  // The drawer shows the alarm as the list has it now (live: acknowledged meanwhile), else as it was opened, else as
  // found for a link to one that is not on this page.
  const inList = alarms.data?.items.find((a) => a.id === linkedId);
  const held = opened?.id === linkedId ? opened : undefined;
  const lookup = useFindAlarm(Number.isNaN(linkedId) ? null : linkedId, {
    enabled: !alarms.isPending && !inList && !held,
  });
  const openedAlarm = inList ?? held ?? lookup.data ?? null;

  const openAlarm = (alarm: Alarm | null) => {
    setOpened(alarm);
    setParams((prev) => linking(prev, alarm?.id ?? null), { replace: true });
  };

  const missing = linkedId !== null && (Number.isNaN(linkedId) || (lookup.isSuccess && lookup.data === null));
  useEffect(() => {
    if (!missing) return;
    void message.warning(t('alarms.notFound'));
    setParams((prev) => linking(prev, null), { replace: true });
  }, [missing, message, t, setParams]);

  const columns: TableColumnsType<Alarm> = [
    {
      title: t('alarms.severity.label'),
      dataIndex: 'severity',
      width: 96,
      render: (v: Alarm['severity'], a) => <SeverityTag severity={v} testId={`alarm-severity-${a.id}`} />,
    },
    {
      title: t('alarms.raisedAt'),
      dataIndex: 'raised_at',
      width: 196,
      // The viewer's clock; on hover the station's own and UTC.
      render: (v: number, a) => <TimeText at={v} stationZone={a.time_zone} testId={`alarm-raised-${a.id}`} />,
    },
    // The station and the rule wrap rather than cut: cut, two stations' site IDs read alike (issue 37).
    {
      title: t('alarms.station'),
      key: 'station',
      width: 180,
      render: (_, a) => (
        <WrapText>
          {a.site_name} ({a.dev_id})
        </WrapText>
      ),
    },
    {
      title: t('alarms.rule'),
      key: 'rule',
      render: (_, a) => (
        <Flex vertical>
          <WrapText>{a.rule_name}</WrapText>
          <Typography.Text type="secondary">{ruleText(t, a)}</Typography.Text>
        </Flex>
      ),
    },
    { title: t('alarms.value'), key: 'value', width: 110, align: 'right', render: (_, a) => valueText(t, a) },
    {
      title: t('alarms.stateLabel'),
      dataIndex: 'state',
      width: 140,
      render: (s: Alarm['state'], a) => (
        <Flex vertical align="start">
          <StateTag state={s} testId={`alarm-state-${a.id}`} />
          {a.silenced && (
            <Tag icon={<MutedOutlined />} data-testid={`alarm-silenced-${a.id}`}>
              {t('alarms.silence.silenced')}
            </Tag>
          )}
          {a.cleared_at && <TimeText at={a.cleared_at} stationZone={a.time_zone} />}
        </Flex>
      ),
    },
    {
      title: t('alarms.acknowledgedBy'),
      key: 'ack',
      width: 170,
      ellipsis: true,
      render: (_, a) =>
        a.acknowledged_at ? (
          <Flex vertical>
            <span>{a.acknowledged_by_name ?? '—'}</span>
            <TimeText at={a.acknowledged_at} stationZone={a.time_zone} />
            {a.ack_note && <Typography.Text ellipsis={{ tooltip: a.ack_note }}>{a.ack_note}</Typography.Text>}
          </Flex>
        ) : (
          '—'
        ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      // "Acknowledge" whole in English, in a small button (issue 37: it was clipped at 104 px).
      width: 136,
      fixed: 'right',
      render: (_, a) => (
        <Flex vertical gap={4} align="start">
          {a.state === 'active' && (
            <Button size="small" onClick={() => setAcknowledging(a)} data-testid={`alarm-ack-${a.id}`}>
              {t('alarms.acknowledge')}
            </Button>
          )}
          <Button size="small" type="link" onClick={() => openAlarm(a)} data-testid={`alarm-open-${a.id}`}>
            {t('alarms.detailsButton')}
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center" gap="small" wrap>
        <Segmented
          value={state}
          onChange={(value) => {
            setState(value);
            paging.toFirst();
          }}
          options={STATES.map((s) => ({ value: s, label: t(`alarms.filter.${s}`) }))}
          data-testid="alarm-filter"
        />
        <Button icon={<DownloadOutlined />} onClick={() => setExporting(true)} data-testid="alarm-export">
          {t('alarms.export.button')}
        </Button>
      </Flex>
      {alarms.isError ? (
        <LoadFailed error={alarms.error} onRetry={() => void alarms.refetch()} />
      ) : (
        <Table<Alarm>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={alarms.data?.items}
          loading={alarms.isLoading}
          // An empty list keeps its own width: a pane that scrolls with nothing to focus is one no keyboard reaches.
          scroll={alarms.data?.items.length ? { x: 1140 } : undefined}
          locale={{ emptyText: state === 'open' ? t('alarms.noneOpen') : t('alarms.none') }}
          data-testid="alarm-table"
          pagination={{
            current: paging.page,
            pageSize: paging.limit,
            total: alarms.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZE_OPTIONS,
            onChange: paging.change,
          }}
        />
      )}
      {acknowledging && <AcknowledgeModal alarm={acknowledging} onClose={() => setAcknowledging(null)} />}
      {openedAlarm && (
        <AlarmDrawer
          alarm={openedAlarm}
          canClear={role === 'superadmin' || role === 'administrator'}
          onClose={() => openAlarm(null)}
        />
      )}
      {exporting && <AlarmExportModal onClose={() => setExporting(false)} />}
    </Flex>
  );
}

function RuleList() {
  const { t } = useTranslation();
  const { role } = useSession();
  const canEdit = role === 'superadmin' || role === 'administrator';
  // The superadmin has no team of its own: it picks the team whose rules and webhook it edits.
  const superadmin = role === 'superadmin';
  const teams = useTeams(ALL_TEAMS, { enabled: superadmin });
  const [picked, setPicked] = useState<number | undefined>();
  const groupId = superadmin ? (picked ?? teams.data?.items[0]?.id) : undefined;
  const rules = useAlarmRules(groupId);
  const ipps = useIpps({ limit: ALL_IPPS_LIMIT });
  const stationName = (id: number) => {
    const ipp = ipps.data?.items.find((i) => i.id === id);
    return ipp ? `${ipp.site_name} (${ipp.dev_id})` : `#${id}`;
  };
  const remove = useRemoveAlarmRule();
  const [editing, setEditing] = useState<AlarmRule | 'new' | null>(null);

  const columns: TableColumnsType<AlarmRule> = [
    { title: t('alarms.ruleName'), dataIndex: 'name', width: 200, render: (v: string) => <WrapText>{v}</WrapText> },
    {
      title: t('alarms.severity.label'),
      dataIndex: 'severity',
      width: 96,
      render: (v: AlarmRule['severity']) => <SeverityTag severity={v} />,
    },
    {
      title: t('alarms.condition.label'),
      key: 'condition',
      render: (_, r) => {
        const details = ruleDetails(t, r);
        return (
          <Flex vertical>
            <span>{ruleText(t, r)}</span>
            {details.length > 0 && <Typography.Text type="secondary">{details.join(' · ')}</Typography.Text>}
          </Flex>
        );
      },
    },
    {
      title: t('alarms.station'),
      dataIndex: 'ipp_id',
      width: 200,
      render: (v: number | null) => <WrapText>{v === null ? t('alarms.allStations') : stationName(v)}</WrapText>,
    },
    {
      title: t('alarms.renotifyLabel'),
      dataIndex: 'renotify_minutes',
      width: 150,
      render: (v: number) => (v === 0 ? t('alarms.never') : t('alarms.everyMinutes', { count: v })),
    },
    {
      title: t('alarms.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => (v ? <Tag color="success">{t('alarms.on')}</Tag> : <Tag>{t('alarms.off')}</Tag>),
    },
  ];
  if (canEdit)
    columns.push({
      title: t('common.actions'),
      key: 'actions',
      width: 96,
      fixed: 'right',
      render: (_, rule) => (
        <Space size={4}>
          <Tooltip title={t('common.edit')}>
            <Button size="small" icon={<EditOutlined />} aria-label={t('common.edit')} onClick={() => setEditing(rule)} />
          </Tooltip>
          <ConfirmAction
            title={t('alarms.removeConfirm', { name: rule.name })}
            onConfirm={() => remove.mutateAsync(rule.id)}
            tooltip={t('common.delete')}
          >
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
          </ConfirmAction>
        </Space>
      ),
    });

  return (
    <Flex vertical gap="middle">
      {canEdit && (
        <Flex gap="small" wrap align="center">
          {superadmin && (
            <Select<number>
              value={groupId}
              onChange={setPicked}
              loading={teams.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              aria-label={t('alarms.team')}
              placeholder={t('alarms.team')}
              style={{ width: 220 }}
              options={(teams.data?.items ?? []).map((team) => ({ value: team.id, label: team.name }))}
              data-testid="alarm-team"
            />
          )}
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            disabled={superadmin && groupId === undefined}
            data-testid="alarm-rule-add"
          >
            {t('alarms.addRule')}
          </Button>
        </Flex>
      )}
      {rules.isError ? (
        <LoadFailed error={rules.error} onRetry={() => void rules.refetch()} />
      ) : (
        <Table<AlarmRule>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rules.data}
          loading={rules.isLoading}
          pagination={false}
          scroll={rules.data?.length ? { x: 900 } : undefined}
          locale={{ emptyText: t('alarms.noRules') }}
          data-testid="alarm-rule-table"
        />
      )}
      <EmailChoiceCard />
      {canEdit && (!superadmin || groupId !== undefined) && <WebhookCard key={groupId ?? 0} groupId={groupId} />}
      {editing && <RuleFormModal rule={editing === 'new' ? null : editing} groupId={groupId} onClose={() => setEditing(null)} />}
    </Flex>
  );
}

/**
 * Alarms (issue 23): the team's alarms as they are raised, acknowledged and cleared (live), and the rules that raise
 * them, which administrators edit.
 */
export function AlarmsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const link = params.get(ALARM_PARAM);
  const [tab, setTab] = useState('alarms');
  // A link to an alarm (the header's drop-down, while the rules are shown) brings its list forward.
  const [seenLink, setSeenLink] = useState(link);
  if (link !== seenLink) {
    setSeenLink(link);
    if (link !== null) setTab('alarms');
  }
  return (
    <Card title={t('route.alarms')}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'alarms', label: t('alarms.tabAlarms'), children: <AlarmList /> },
          { key: 'rules', label: t('alarms.tabRules'), children: <RuleList /> },
          { key: 'silences', label: t('alarms.tabSilences'), children: <SilenceList /> },
        ]}
      />
    </Card>
  );
}
