import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_SETTINGS } from '@ipp/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { callsTo, failField, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { openSelect, pickOption } from '@/test/select';

const NORTH = {
  id: 4,
  name: 'North',
  admin_account: 'na',
  admin_name: 'N A',
  superadmin_count: 0,
  admin_count: 1,
  user_count: 2,
  created_at: 1,
};
const SOUTH = {
  id: 5,
  name: 'South',
  admin_account: null,
  admin_name: null,
  superadmin_count: 0,
  admin_count: 0,
  user_count: 3,
  created_at: 2,
};
const BOB = {
  id: 12,
  account: 'bob',
  name: 'Bob',
  phone: '+86 138 0000 0000',
  email: 'bob@example.org',
  group_id: 4,
  group_name: 'North',
  role: 'user',
  demo: false,
  created_at: 5,
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/group/index': () => pageEnvelope([NORTH, SOUTH]),
    '/api/setting/index': () => okEnvelope(DEFAULT_SETTINGS),
    '/api/user/index': () => pageEnvelope([]),
    '/api/user/save': (_url, init) => okEnvelope({ ...BOB, ...(JSON.parse(String(init?.body)) as object), id: 12 }),
    ...extra,
  });
}

async function openForm(path = '/manage/user_edit') {
  const view = renderRoutes(appRouteObjects, [path]);
  await screen.findByTestId('user-account');
  return { ...view, user: userEvent.setup() };
}

/** The explain line under a field, found from its input. */
function fieldError(testId: string): string {
  const item = screen.getByTestId(testId).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('user form: field rules', () => {
  it('asks for every required field, the team with "Please select a Team!", and says so on submit', async () => {
    server();
    const { user } = await openForm();
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(fieldError('user-team')).toBe('请选择团队！'));
    expect(fieldError('user-account')).toBe('请输入账号');
    expect(fieldError('user-password')).toBe('请输入密码');
    expect(fieldError('user-phone')).toBe('请输入电话号码');
    expect(fieldError('user-email')).toBe('请输入邮箱');
    expect(fieldError('user-role')).toBe('请选择角色');
    expect(await screen.findByText('请检查必填项！')).toBeTruthy();
    // Every required field is marked so (the asterisk), the role included.
    for (const id of ['user-account', 'user-password', 'user-role']) {
      const label = screen.getByTestId(id).closest('.ant-form-item')?.querySelector('label');
      expect(label?.className, id).toContain('ant-form-item-required');
    }

    await setLanguage('en');
    await waitFor(() => expect(fieldError('user-team')).toBe('Please select a Team!'));
  });

  it('checks account, phone, email and password formats at the field', async () => {
    server();
    const { user } = await openForm();
    await user.type(screen.getByTestId('user-account'), 'bob smith');
    await user.type(screen.getByTestId('user-phone'), '12ab');
    await user.type(screen.getByTestId('user-email'), 'bob@');
    await user.type(screen.getByTestId('user-password'), '12345');
    await waitFor(() => expect(fieldError('user-account')).toBe('只能使用字母、数字和 _ . @ -'));
    expect(fieldError('user-phone')).toContain('请使用数字');
    expect(fieldError('user-email')).toBe('请输入有效的邮箱地址');
    expect(fieldError('user-password')).toBe('密码至少 6 位');

    for (const id of ['user-account', 'user-phone', 'user-email', 'user-password']) await user.clear(screen.getByTestId(id));
    await user.type(screen.getByTestId('user-account'), 'bob.smith@sea-lab_2');
    await user.type(screen.getByTestId('user-phone'), '+86 138-0000-0000');
    await user.type(screen.getByTestId('user-email'), 'bob@example.org');
    await user.type(screen.getByTestId('user-password'), '123456');
    await waitFor(() => {
      for (const id of ['user-account', 'user-phone', 'user-email', 'user-password']) expect(fieldError(id), id).toBe('');
    });
  });

  it('lets a superadmin have no team', async () => {
    const fetchMock = server();
    const { user } = await openForm();
    await user.type(screen.getByTestId('user-account'), 'root2');
    await user.type(screen.getByTestId('user-name'), 'Root Two');
    await user.type(screen.getByTestId('user-password'), 'secret-1');
    await user.type(screen.getByTestId('user-phone'), '12345678');
    await user.type(screen.getByTestId('user-email'), 'root2@example.org');
    await pickOption('user-role', '超级管理员');
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/user/save')).toHaveLength(1));
    expect(lastBody(fetchMock, '/api/user/save')).toEqual({
      account: 'root2',
      name: 'Root Two',
      password: 'secret-1',
      phone: '12345678',
      email: 'root2@example.org',
      group_id: null,
      role: 'superadmin',
    });
  });
});

describe('user form: team limits', () => {
  it('shows the head counts against the limits once a team is chosen and disables full roles', async () => {
    server();
    const { user } = await openForm();
    expect(screen.queryByTestId('user-team-limits')).toBeNull();
    await pickOption('user-team', 'North');
    const hint = await screen.findByTestId('user-team-limits');
    expect(hint.textContent).toContain('团队 North 现有管理员 1/1 名，用户 2/3 名。');
    expect(hint.textContent).toContain('已无空位：团队管理员');

    const options = await openSelect('user-role');
    const admin = options.find((option) => option.textContent?.startsWith('团队管理员'));
    const plain = options.find((option) => option.textContent?.startsWith('普通用户'));
    expect(admin?.getAttribute('aria-disabled') ?? admin?.className).toMatch(/true|disabled/);
    expect(plain?.className).not.toMatch(/disabled/);
    await user.keyboard('{Escape}');

    await pickOption('user-team', 'South');
    await waitFor(() => expect(screen.getByTestId('user-team-limits').textContent).toContain('用户 3/3 名'));
    expect(screen.getByTestId('user-team-limits').textContent).toContain('已无空位：普通用户');
  });

  it('refuses a role that became full when the team changed, before asking the server', async () => {
    const fetchMock = server();
    const { user } = await openForm();
    await pickOption('user-team', 'South');
    await pickOption('user-role', '团队管理员');
    await pickOption('user-team', 'North');
    await waitFor(() => expect(fieldError('user-role')).toBe('该团队已有 1 名团队管理员，已达上限'));
    await user.click(screen.getByTestId('user-submit'));
    expect(callsTo(fetchMock, '/api/user/save')).toHaveLength(0);
  });

  it('does not count the edited user against their own seat, and keeps the password when left empty', async () => {
    const fetchMock = server({
      '/api/user/view': () => okEnvelope({ ...BOB, group_id: 5, group_name: 'South' }),
    });
    const { user, router } = await openForm('/manage/user_edit?id=12');
    await waitFor(() => expect((screen.getByTestId('user-account') as HTMLInputElement).value).toBe('bob'));
    const hint = await screen.findByTestId('user-team-limits');
    expect(hint.textContent).toContain('用户 3/3 名');
    expect(hint.textContent).not.toContain('已无空位');
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/user'));
    const body = lastBody(fetchMock, '/api/user/save') as Record<string, unknown>;
    expect(body).toMatchObject({ id: 12, account: 'bob', group_id: 5, role: 'user' });
    expect(body).not.toHaveProperty('password');
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });
});

describe('user form: server answers', () => {
  it('puts a 1002 message on the field the server names', async () => {
    server({ '/api/user/save': () => failField(1002, '账号已存在', 400, 'account') });
    const { user } = await openForm();
    await user.type(screen.getByTestId('user-account'), 'bob');
    await user.type(screen.getByTestId('user-name'), 'Bob');
    await user.type(screen.getByTestId('user-password'), 'secret-1');
    await user.type(screen.getByTestId('user-phone'), '12345678');
    await user.type(screen.getByTestId('user-email'), 'bob@example.org');
    await pickOption('user-team', 'North');
    await pickOption('user-role', '普通用户');
    await user.click(screen.getByTestId('user-submit'));
    await waitFor(() => expect(fieldError('user-account')).toBe('账号已存在'));
  });

  it('offers an administrator only the role user, in its own team', async () => {
    signIn('administrator');
    server({
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator', group_id: 4 }),
      '/api/group/index': () => pageEnvelope([NORTH]),
    });
    await openForm();
    await waitFor(() => expect(within(screen.getByTestId('user-team')).getByText('North')).toBeTruthy());
    expect(within(screen.getByTestId('user-role')).getByText('普通用户')).toBeTruthy();
    expect(screen.getByTestId('user-role').className).toContain('disabled');
  });
});
