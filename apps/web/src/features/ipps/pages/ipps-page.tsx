import { WIPER_STATES } from '@ipp/contracts';
import { CopyOutlined, DeleteOutlined, EyeOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { Ipp, IppIndexQuery } from '@ipp/contracts';
import { App, Button, Card, Empty, Flex, Select, Space, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '@/components/search-box';
import { useNavigate } from 'react-router';
import { useIpps } from '@/api/get-ipps';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { ConfirmAction } from '@/components/confirm-action';
import { PagedTable } from '@/components/paged-table';
import { WrapText } from '@/components/wrap-text';
import { useCountries } from '@/hooks/use-countries';
import { useSession } from '@/hooks/use-session';
import { usePaging } from '@/hooks/use-paging';
import { IPP_PAGE_SIZE, IPP_PAGE_SIZE_OPTIONS } from '@/lib/paging';
import { useDeleteIpp } from '../api/delete-ipp';
import { ApplyConfigModal } from '../components/apply-config-modal';
import { ConfigSyncTag } from '../components/config-sync-tag';
import { IppStatusBadge } from '../components/ipp-status-badge';
import { canManageIpps } from '../utils/ipp-rules';
import { formatCoordinates } from '../utils/location';
import { formatTimeWithZone } from '@/lib/time-zones';

const EDIT_PATH = '/manage/ipp_edit';

const VIEW_PATH = '/ipp/ipp-view';
const NONE = '—';

export function IppsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { role } = useSession();
  const countries = useCountries();
  const isSuperadmin = role === 'superadmin';
  const canManage = canManageIpps(role);
  const [keyword, setKeyword] = useState('');
  const [groupId, setGroupId] = useState<number | undefined>(undefined);
  const paging = usePaging(IPP_PAGE_SIZE);
  const query: Partial<IppIndexQuery> = {
    keyword: keyword || undefined,
    group_id: groupId,
    page: paging.page,
    limit: paging.limit,
  };
  const ipps = useIpps(query, { live: true });
  const [selected, setSelected] = useState<Ipp[]>([]);
  const [applying, setApplying] = useState(false);
  const teams = useTeams(ALL_TEAMS, { enabled: isSuperadmin });
  const deleteIpp = useDeleteIpp();
  const filtered = keyword !== '' || groupId !== undefined;

  const applySearch = (value: string) => {
    setKeyword(value.trim());
    paging.toFirst();
  };

  const remove = async (ipp: Ipp) => {
    await deleteIpp.mutateAsync({ id: ipp.id });
    void message.success(t('messages.deleteSuccess'));
    paging.removed(ipps.data?.items.length);
  };

  // Fixed widths, and text that wraps rather than cuts: "SIM-0…" and "OPS-…" read alike (issue 37), a tooltip does not
  // tell rows apart. Long unbroken serial numbers or site IDs break anywhere. The site name takes what is left.
  const columns: TableColumnsType<Ipp> = [
    { title: t('ipps.status'), key: 'status', width: 88, render: (_, ipp) => <IppStatusBadge ipp={ipp} /> },
    {
      title: t('ipps.location'),
      key: 'location',
      width: 150,
      render: (_, ipp) => (
        <Flex vertical>
          <span>{countries.name(ipp.country)}</span>
          <Typography.Text type="secondary">
            {formatCoordinates(ipp.longitude, ipp.latitude) ?? t('ipps.noCoordinates')}
          </Typography.Text>
        </Flex>
      ),
    },
    { title: t('ipps.site'), dataIndex: 'site_name', render: (value: string) => <WrapText>{value || NONE}</WrapText> },
    { title: t('ipps.devId'), dataIndex: 'dev_id', width: 104, render: (value: string) => <WrapText>{value}</WrapText> },
    { title: t('ipps.sync.column'), key: 'sync', width: 104, render: (_, ipp) => <ConfigSyncTag ipp={ipp} /> },
    {
      title: t('ipps.serialNumber'),
      dataIndex: 'serial_number',
      width: 132,
      render: (value: string) => <WrapText>{value || NONE}</WrapText>,
    },
  ];
  if (isSuperadmin) {
    columns.push({
      title: t('ipps.team'),
      dataIndex: 'group_name',
      width: 130,
      render: (value: string | null) => <WrapText>{value ?? NONE}</WrapText>,
    });
  }
  columns.push(
    {
      title: t('ipps.wiperStatus'),
      dataIndex: 'wiper_status',
      width: 132,
      render: (value: string | null, ipp) => {
        const state = value && (WIPER_STATES as readonly string[]).includes(value) ? t(`measured.wiper.${value}`) : value;
        if (!state) return NONE;
        // An offline station's wiper is not known now: its last report, said as such, with its time (issue 20).
        if (!ipp.online) {
          return (
            <Typography.Text type="secondary" data-testid={`ipp-wiper-${ipp.id}`} style={{ wordBreak: 'normal' }}>
              {t('ipps.wiperLastKnown', {
                state,
                time: ipp.last_online_at === null ? '—' : formatTimeWithZone(ipp.last_online_at),
              })}
            </Typography.Text>
          );
        }
        return <span data-testid={`ipp-wiper-${ipp.id}`}>{state}</span>;
      },
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      width: 116,
      render: (_, ipp) => (
        <Space size={4}>
          {/* Icons with their names as tooltips and labels: the list then fits 1440 px with every column (issue 20). */}
          <Tooltip title={t('ipps.configure')}>
            <Button
              size="small"
              icon={<SettingOutlined />}
              aria-label={t('ipps.configure')}
              onClick={() => void navigate(`${EDIT_PATH}?id=${ipp.id}`)}
              data-testid={`ipp-edit-${ipp.id}`}
            />
          </Tooltip>
          <Tooltip title={t('ipps.view')}>
            <Button
              size="small"
              icon={<EyeOutlined />}
              aria-label={t('ipps.view')}
              onClick={() => void navigate(`${VIEW_PATH}?id=${ipp.id}`)}
              data-testid={`ipp-view-${ipp.id}`}
            />
          </Tooltip>
          {canManage && (
            <ConfirmAction
              title={t('ipps.deleteConfirm', { site: ipp.site_name || ipp.dev_id, devId: ipp.dev_id })}
              onConfirm={() => remove(ipp)}
              tooltip={t('common.delete')}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                data-testid={`ipp-delete-${ipp.id}`}
              />
            </ConfirmAction>
          )}
        </Space>
      ),
    },
  );

  return (
    <Card
      title={t('route.ipps')}
      extra={
        canManage && (
          <Space>
            <Tooltip title={selected.length === 0 ? t('ipps.apply.selectFirst') : undefined}>
              <Button
                icon={<CopyOutlined />}
                disabled={selected.length === 0}
                onClick={() => setApplying(true)}
                data-testid="ipp-apply-open"
              >
                {t('ipps.apply.open', { count: selected.length })}
              </Button>
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(EDIT_PATH)} data-testid="ipp-add">
              {t('ipps.add')}
            </Button>
          </Space>
        )
      }
    >
      <Flex vertical gap="middle">
        <Flex wrap gap="small">
          <SearchBox
            placeholder={t('ipps.searchPlaceholder')}
            testId="ipp-search"
            onSearch={applySearch}
            style={{ width: 420, maxWidth: '100%' }}
          />
          {isSuperadmin && (
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ minWidth: 200 }}
              placeholder={t('ipps.allTeams')}
              aria-label={t('ipps.team')}
              loading={teams.isPending}
              value={groupId}
              onChange={(value) => {
                setGroupId(value ?? undefined);
                paging.toFirst();
              }}
              options={teams.data?.items.map((team) => ({ value: team.id, label: team.name }))}
              data-testid="ipp-search-team"
            />
          )}
        </Flex>
        <PagedTable<Ipp>
          query={ipps}
          paging={paging}
          pageSizeOptions={IPP_PAGE_SIZE_OPTIONS}
          rowKey="id"
          columns={columns}
          // Administrators pick instruments to give the same settings ("Apply settings"); kept across pages.
          rowSelection={
            canManage
              ? {
                  selectedRowKeys: selected.map((ipp) => ipp.id),
                  preserveSelectedRowKeys: true,
                  onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
                  columnWidth: 40,
                }
              : undefined
          }
          tableLayout="fixed"
          scroll={{ x: isSuperadmin ? 1100 : 960 }}
          rowTestId={(ipp) => `ipp-row-${ipp.dev_id}`}
          locale={{
            // While the first page loads the spinner says enough.
            emptyText: ipps.isPending ? (
              ' '
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={filtered ? t('ipps.emptySearch') : t('ipps.empty')}
                data-testid="ipp-empty"
              />
            ),
          }}
        />
      </Flex>
      {applying && (
        <ApplyConfigModal
          targets={selected}
          onClose={() => {
            setApplying(false);
            setSelected([]);
          }}
        />
      )}
    </Card>
  );
}
