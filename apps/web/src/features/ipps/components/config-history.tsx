import type { IppConfigChange } from '@ipp/contracts';
import { Card, Flex, Popover, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useConfigHistory } from '../api/get-config-history';
import { configValueText } from '../utils/config-fields';
import { TimeText } from '@/components/time-text';

const PAGE_SIZE = 10;
const STATE_COLORS = { applied: 'success', pending: 'warning', superseded: 'default' } as const;

/** One version's settings: what changed (old → new), or for the first version every setting, behind a popover. */
function Changes({ row }: { row: IppConfigChange }) {
  const { t } = useTranslation();
  const value = (key: IppConfigChange['changes'][number]['key'], v: number) => configValueText(key, v, (unit) => t(unit));
  if (row.changes.every((change) => change.from === null)) {
    const list = (
      <Flex vertical data-testid={`ipp-history-initial-${row.version}`}>
        {row.changes.map((change) => (
          <span key={change.key}>
            {t(`ipps.config.${change.key}`)}: {value(change.key, change.to)}
          </span>
        ))}
      </Flex>
    );
    return (
      <Popover content={list} title={t('ipps.history.initialTitle', { version: row.version })}>
        <Typography.Link>{t('ipps.history.initial', { count: row.changes.length })}</Typography.Link>
      </Popover>
    );
  }
  return (
    <Flex vertical data-testid={`ipp-history-changes-${row.version}`}>
      {row.changes.map((change) => (
        <span key={change.key}>
          {t(`ipps.config.${change.key}`)}: <Typography.Text delete>{value(change.key, change.from!)}</Typography.Text> →{' '}
          <Typography.Text strong>{value(change.key, change.to)}</Typography.Text>
        </span>
      ))}
    </Flex>
  );
}

/**
 * The instrument's configuration audit (issue 23): every version, who set it and when, what it changed, and whether
 * the device runs it. Follows the device like the form does.
 */
export function ConfigHistory({ ippId }: { ippId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = useConfigHistory(ippId, page, PAGE_SIZE);

  const columns: TableColumnsType<IppConfigChange> = [
    {
      title: t('ipps.history.version'),
      key: 'version',
      width: 150,
      render: (_, row) => (
        <Flex gap={6} align="center" wrap>
          <Typography.Text strong>v{row.version}</Typography.Text>
          <Tag>{t(`ipps.history.source.${row.source}`)}</Tag>
        </Flex>
      ),
    },
    {
      title: t('ipps.history.when'),
      key: 'when',
      width: 200,
      render: (_, row) => (
        <Flex vertical>
          <TimeText at={row.changed_at} />
          <Typography.Text type="secondary">{row.changed_by_name ?? t('ipps.history.unknownUser')}</Typography.Text>
        </Flex>
      ),
    },
    { title: t('ipps.history.changes'), key: 'changes', render: (_, row) => <Changes row={row} /> },
    {
      title: t('ipps.history.device'),
      key: 'state',
      width: 220,
      render: (_, row) => (
        <Flex vertical align="flex-start" data-testid={`ipp-history-state-${row.version}`} data-state={row.state}>
          <Tag color={STATE_COLORS[row.state]}>{t(`ipps.history.state.${row.state}`)}</Tag>
          {row.applied_at !== null && <TimeText at={row.applied_at} />}
        </Flex>
      ),
    },
  ];

  return (
    <Card type="inner" size="small" title={t('ipps.history.title')} data-testid="ipp-config-history">
      {history.isError && !history.data ? (
        <LoadFailed error={history.error} onRetry={() => void history.refetch()} />
      ) : (
        <Table<IppConfigChange>
          rowKey="version"
          size="small"
          columns={columns}
          dataSource={history.data?.items}
          loading={history.isPending}
          tableLayout="fixed"
          locale={{ emptyText: history.isPending ? ' ' : t('ipps.history.empty') }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: history.data?.total ?? 0,
            hideOnSinglePage: true,
            showTotal: (total) => t('common.total', { count: total }),
            onChange: setPage,
          }}
        />
      )}
    </Card>
  );
}
