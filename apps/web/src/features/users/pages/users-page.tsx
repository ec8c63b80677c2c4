import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { User, UserIndexQuery } from '@ipp/contracts';
import { App, Button, Card, Flex, Form, Input, Select, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '@/api/get-user-info';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { ConfirmAction } from '@/components/confirm-action';
import { PagedTable } from '@/components/paged-table';
import { useSession } from '@/hooks/use-session';
import { usePaging } from '@/hooks/use-paging';
import { useDeleteUser } from '../api/delete-user';
import { useUsers } from '../api/get-users';
import { TimeText } from '@/components/time-text';

interface SearchValues {
  account?: string;
  email?: string;
  phone?: string;
  group_id?: number;
}

const ROLE_COLORS = { superadmin: 'red', administrator: 'blue', user: 'default' } as const;
const EDIT_PATH = '/manage/user_edit';

/** An administrator manages the users of its team, itself included, but not other administrators. */
function canChange(viewer: string | null, meId: number | undefined, user: User): boolean {
  return viewer === 'superadmin' || user.role === 'user' || user.id === meId;
}

export function UsersPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { role } = useSession();
  const me = useUserInfo().data;
  const isSuperadmin = role === 'superadmin';
  const [form] = Form.useForm<SearchValues>();
  const [filters, setFilters] = useState<SearchValues>({});
  const paging = usePaging();
  const query: Partial<UserIndexQuery> = { ...filters, page: paging.page, limit: paging.limit };
  const users = useUsers(query);
  const teams = useTeams(ALL_TEAMS, { enabled: isSuperadmin });
  const deleteUser = useDeleteUser();

  const search = (values: SearchValues) => {
    setFilters({
      account: values.account?.trim() || undefined,
      email: values.email?.trim() || undefined,
      phone: values.phone?.trim() || undefined,
      group_id: values.group_id ?? undefined,
    });
    paging.toFirst();
  };

  const remove = async (user: User) => {
    await deleteUser.mutateAsync({ id: user.id });
    void message.success(t('messages.deleteSuccess'));
    paging.removed(users.data?.items.length);
  };

  const columns: TableColumnsType<User> = [
    { title: t('users.account'), dataIndex: 'account' },
    { title: t('users.name'), dataIndex: 'name' },
    { title: t('users.phone'), dataIndex: 'phone' },
    { title: t('users.email'), dataIndex: 'email' },
    { title: t('users.team'), dataIndex: 'group_name', render: (value: string | null) => value ?? t('home.noTeam') },
    {
      title: t('users.role'),
      dataIndex: 'role',
      render: (value: User['role'], user) => (
        <Space size={4}>
          <Tag color={ROLE_COLORS[value]}>{t(`role.${value}`)}</Tag>
          {user.demo && <Tag color="orange">{t('users.demo')}</Tag>}
        </Space>
      ),
    },
    { title: t('common.createdAt'), dataIndex: 'created_at', render: (value: number) => <TimeText at={value} /> },
    {
      title: t('common.actions'),
      key: 'actions',
      // Kept in view when the table scrolls sideways on narrow screens.
      fixed: 'right',
      render: (_, user) => {
        if (!canChange(role, me?.id, user)) return null;
        const self = user.id === me?.id;
        return (
          <Space size="small">
            <Button
              size="small"
              icon={<EditOutlined />}
              onClick={() => void navigate(`${EDIT_PATH}?id=${user.id}`)}
              data-testid={`user-edit-${user.id}`}
            >
              {t('common.edit')}
            </Button>
            {self ? (
              <Tooltip title={t('users.cannotDeleteSelf')}>
                <Button size="small" danger icon={<DeleteOutlined />} disabled data-testid={`user-delete-${user.id}`}>
                  {t('common.delete')}
                </Button>
              </Tooltip>
            ) : (
              <ConfirmAction title={t('users.deleteConfirm', { account: user.account })} onConfirm={() => remove(user)}>
                <Button size="small" danger icon={<DeleteOutlined />} data-testid={`user-delete-${user.id}`}>
                  {t('common.delete')}
                </Button>
              </ConfirmAction>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <Card
      title={t('route.users')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(EDIT_PATH)} data-testid="user-add">
          {t('users.add')}
        </Button>
      }
    >
      <Flex vertical gap="middle">
        <Form<SearchValues> form={form} layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="account" label={t('users.account')}>
            <Input allowClear data-testid="user-search-account" />
          </Form.Item>
          <Form.Item name="email" label={t('users.email')}>
            <Input allowClear data-testid="user-search-email" />
          </Form.Item>
          <Form.Item name="phone" label={t('users.phone')}>
            <Input allowClear data-testid="user-search-phone" />
          </Form.Item>
          {isSuperadmin && (
            <Form.Item name="group_id" label={t('users.team')}>
              <Select<number>
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ minWidth: 180 }}
                placeholder={t('users.allTeams')}
                loading={teams.isPending}
                options={teams.data?.items.map((team) => ({ value: team.id, label: team.name }))}
                data-testid="user-search-team"
              />
            </Form.Item>
          )}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" data-testid="user-search-submit">
                {t('common.search')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  search({});
                }}
              >
                {t('common.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
        <PagedTable<User>
          query={users}
          paging={paging}
          rowKey="id"
          columns={columns}
          scroll={{ x: 'max-content' }}
          rowTestId={(user) => `user-row-${user.account}`}
        />
      </Flex>
    </Card>
  );
}
