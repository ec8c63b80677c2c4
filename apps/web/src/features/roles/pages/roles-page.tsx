import { ADMIN_DATA_ROUTES, CONSOLE_ROUTES, type ConsolePath, type Role } from '@ipp/contracts';
import { App, Button, Card, Checkbox, Flex, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoleTable } from '@/api/get-role-table';
import { LoadFailed } from '@/components/load-failed';
import { useSession } from '@/hooks/use-session';
import { ROUTE_TITLE_KEYS } from '@/lib/route-titles';
import { useSaveRoleTable } from '../api/save-role-table';
import { changedRoutes, effectiveLists, userAllowed } from '../utils/role-lists';

interface RouteRow {
  path: ConsolePath;
  userMay: boolean;
}

interface RoleRow {
  role: Role;
  name_zh: string;
  name_en: string;
}

export function RolesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { role: viewer } = useSession();
  const canEdit = viewer === 'superadmin';
  const table = useRoleTable();
  const save = useSaveRoleTable();
  const [draft, setDraft] = useState<ReadonlyMap<ConsolePath, boolean>>(new Map());

  const lists = useMemo(() => effectiveLists(table.data?.routes ?? []), [table.data]);
  const rows: RouteRow[] = CONSOLE_ROUTES.map(({ path }) => ({ path, userMay: draft.get(path) ?? userAllowed(lists.get(path)) }));
  const changes = changedRoutes(lists, draft);

  const toggle = (path: ConsolePath, userMay: boolean) => setDraft(new Map(draft).set(path, userMay));

  const submit = () => {
    save.mutate(
      { routes: changes },
      {
        onSuccess: () => {
          setDraft(new Map());
          void message.success(t('messages.saveSuccess'));
        },
      },
    );
  };

  const fixedColumn = (role: Role) => ({
    title: t(`role.${role}`),
    key: role,
    align: 'center' as const,
    render: (_: unknown, row: RouteRow) => (
      <Checkbox checked disabled aria-label={`${t(ROUTE_TITLE_KEYS[row.path])} · ${t(`role.${role}`)}`} />
    ),
  });

  const routeColumns: TableColumnsType<RouteRow> = [
    {
      title: t('roles.page'),
      dataIndex: 'path',
      render: (path: ConsolePath) => (
        <Flex vertical>
          <span>{t(ROUTE_TITLE_KEYS[path])}</span>
          <Typography.Text type="secondary" code>
            {path}
          </Typography.Text>
        </Flex>
      ),
    },
    fixedColumn('superadmin'),
    fixedColumn('administrator'),
    {
      title: t('role.user'),
      key: 'user',
      align: 'center',
      render: (_, row) => {
        // Pages whose data the server gives only to administrators cannot be granted (the server refuses too).
        const calls = ADMIN_DATA_ROUTES[row.path];
        const box = (
          <Checkbox
            checked={calls ? false : row.userMay}
            disabled={!canEdit || calls !== undefined}
            onChange={(event) => toggle(row.path, event.target.checked)}
            aria-label={`${t(ROUTE_TITLE_KEYS[row.path])} · ${t('role.user')}`}
            aria-description={calls ? t('roles.adminData', { calls: calls.join(', ') }) : undefined}
            data-testid={`role-check-${row.path}-user`}
          />
        );
        return calls ? (
          <Tooltip title={t('roles.adminData', { calls: calls.join(', ') })}>
            <Flex vertical align="center" data-testid={`role-admin-data-${row.path}`}>
              {box}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('roles.adminOnly')}
              </Typography.Text>
            </Flex>
          </Tooltip>
        ) : (
          box
        );
      },
    },
  ];

  const roleColumns: TableColumnsType<RoleRow> = [
    { title: t('roles.key'), dataIndex: 'role', render: (role: Role) => <Typography.Text code>{role}</Typography.Text> },
    { title: t('roles.nameZh'), dataIndex: 'name_zh' },
    { title: t('roles.nameEn'), dataIndex: 'name_en' },
  ];
  const roleRows: RoleRow[] = table.data?.roles ?? [];

  if (table.isError) return <LoadFailed error={table.error} onRetry={() => void table.refetch()} />;

  return (
    <Flex vertical gap="middle">
      <Card title={t('roles.rolesTitle')} loading={table.isPending}>
        <Table<RoleRow> rowKey="role" columns={roleColumns} dataSource={roleRows} pagination={false} size="small" />
      </Card>
      <Card
        title={t('roles.accessTitle')}
        loading={table.isPending}
        extra={
          canEdit && (
            <Button
              type="primary"
              disabled={changes.length === 0}
              loading={save.isPending}
              onClick={submit}
              data-testid="role-save"
            >
              {t('common.save')}
            </Button>
          )
        }
      >
        <Flex vertical gap="middle">
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('roles.accessHint')}
          </Typography.Paragraph>
          <Table<RouteRow> rowKey="path" columns={routeColumns} dataSource={rows} pagination={false} size="small" />
        </Flex>
      </Card>
    </Flex>
  );
}
