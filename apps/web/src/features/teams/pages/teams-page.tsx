import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Team } from '@ipp/contracts';
import { App, Button, Card, Flex, Space, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '@/components/search-box';
import { useTeams } from '@/api/get-teams';
import { ConfirmAction } from '@/components/confirm-action';
import { PagedTable } from '@/components/paged-table';
import { useSession } from '@/hooks/use-session';
import { usePaging } from '@/hooks/use-paging';
import { useDeleteTeam } from '../api/delete-team';
import { TeamFormModal } from '../components/team-form-modal';
import { TimeText } from '@/components/time-text';
import { WrapText } from '@/components/wrap-text';

type Editing = { kind: 'add' } | { kind: 'rename'; team: Team } | null;

export function TeamsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { role } = useSession();
  // Spec: only a superadmin adds, renames and removes; an administrator sees its own team read-only.
  const canManage = role === 'superadmin';
  const [name, setName] = useState('');
  const paging = usePaging();
  const [editing, setEditing] = useState<Editing>(null);
  const teams = useTeams({ name: name || undefined, page: paging.page, limit: paging.limit });
  const deleteTeam = useDeleteTeam();

  const applySearch = (value: string) => {
    setName(value.trim());
    paging.toFirst();
  };

  const remove = async (team: Team) => {
    await deleteTeam.mutateAsync({ id: team.id });
    void message.success(t('messages.deleteSuccess'));
    paging.removed(teams.data?.items.length);
  };

  // Fixed widths and the actions fixed on the right: a 64-character team name no longer pushes the counts and Delete
  // off the page at 1440 px (issue 20). Names wrap rather than cut (issue 37: "Demo Team…" beside empty columns); the
  // counts' columns are as narrow as their numbers, their headers wrap.
  const columns: TableColumnsType<Team> = [
    { title: t('teams.id'), dataIndex: 'id', width: 96 },
    { title: t('teams.name'), dataIndex: 'name', render: (value: string) => <WrapText>{value}</WrapText> },
    {
      title: t('teams.adminAccount'),
      dataIndex: 'admin_account',
      width: 140,
      render: (value: string | null) => <WrapText>{value ?? '—'}</WrapText>,
    },
    {
      title: t('teams.adminName'),
      dataIndex: 'admin_name',
      width: 150,
      render: (value: string | null) => <WrapText>{value ?? '—'}</WrapText>,
    },
    { title: t('teams.superadminCount'), dataIndex: 'superadmin_count', align: 'right', width: 100 },
    { title: t('teams.adminCount'), dataIndex: 'admin_count', align: 'right', width: 84 },
    { title: t('teams.userCount'), dataIndex: 'user_count', align: 'right', width: 76 },
    { title: t('common.createdAt'), dataIndex: 'created_at', width: 210, render: (value: number) => <TimeText at={value} /> },
  ];
  if (canManage) {
    columns.push({
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      width: 96,
      render: (_, team) => (
        <Space size={4}>
          {/* Icons with their names as tooltips and labels: the list fits 1440 px, Delete included (issue 20). */}
          <Tooltip title={t('teams.rename')}>
            <Button
              size="small"
              icon={<EditOutlined />}
              aria-label={t('teams.rename')}
              onClick={() => setEditing({ kind: 'rename', team })}
              data-testid={`team-rename-${team.id}`}
            />
          </Tooltip>
          <ConfirmAction
            title={t('teams.deleteConfirm', { name: team.name })}
            onConfirm={() => remove(team)}
            tooltip={t('common.delete')}
          >
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('common.delete')}
              data-testid={`team-delete-${team.id}`}
            />
          </ConfirmAction>
        </Space>
      ),
    });
  }

  return (
    <Card
      title={t('route.teams')}
      extra={
        canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'add' })} data-testid="team-add">
            {t('teams.add')}
          </Button>
        )
      }
    >
      <Flex vertical gap="middle">
        <SearchBox
          placeholder={t('teams.searchPlaceholder')}
          testId="team-search"
          onSearch={applySearch}
          style={{ maxWidth: 360 }}
        />
        <PagedTable<Team>
          query={teams}
          paging={paging}
          rowKey="id"
          columns={columns}
          tableLayout="fixed"
          scroll={{ x: 1050 }}
          rowTestId={(team) => `team-row-${team.name}`}
        />
      </Flex>
      {editing && <TeamFormModal team={editing.kind === 'rename' ? editing.team : undefined} onClose={() => setEditing(null)} />}
    </Card>
  );
}
