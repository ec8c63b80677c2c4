import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { button, choose, confirm, toast } from './support/antd.ts';
import { chromiumAvailable } from './support/browser.ts';
import { expectPath, signIn, signOut, storage } from './support/console.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const T = {
  zh: {
    teamCreated: '团队创建成功',
    deleted: '删除成功',
    limit: '每个团队最多 1 个管理员和 3 个用户',
    forbidden: '抱歉，您无权访问此页面',
    wrongPassword: '账号或密码错误',
    teamAdmin: '团队管理员',
    user: '普通用户',
    addTeam: '新增团队',
    newTeam: '新增团队',
    teamName: '团队名称',
    addUser: '新增用户',
    account: '账号',
    userName: '用户名',
    password: '密码',
    phone: '电话',
    email: '邮箱',
    currentPassword: '当前密码',
    newPassword: '新密码',
    confirmPassword: '确认新密码',
    changePassword: '修改密码',
    signIn: '登录',
    save: '保存',
  },
  en: {
    teamCreated: 'Team creation successful',
    deleted: 'Delete successful',
    limit: 'Every team has 1 administrator and 3 users',
    forbidden: 'Oops, You do not have the right to visit this page',
    wrongPassword: 'Incorrect account or password',
    teamAdmin: 'Team Admin',
    user: 'User',
    addTeam: 'Add team',
    newTeam: 'New team',
    teamName: 'Team name',
    addUser: 'Add user',
    account: 'Account',
    userName: 'User name',
    password: 'Password',
    phone: 'Phone',
    email: 'Email',
    currentPassword: 'Current password',
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    changePassword: 'Change password',
    signIn: 'Sign in',
    save: 'Save',
  },
} as const;

type Words = (typeof T)[keyof typeof T];

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function addUser(page: Page, t: Words, fields: { account: string; role: string; team: string }) {
  await page.goto('/manage/user');
  await button(page, t.addUser).click();
  await expectPath(page, '/manage/user_edit');
  await field(page, t.account).fill(fields.account);
  await field(page, t.userName).fill(`Name ${fields.account}`);
  await field(page, t.password).fill('pass-1234');
  await field(page, t.phone).fill('13800000000');
  await field(page, t.email).fill(`${fields.account}@example.org`);
  await choose(page, 'user-team', fields.team);
  await choose(page, 'user-role', fields.role);
  await button(page, t.save).click();
}

/** Adds a team through the New team dialog. */
async function addTeam(page: Page, t: Words, name: string) {
  await button(page, t.addTeam).click();
  const dialog = page.getByRole('dialog', { name: t.newTeam });
  await dialog.getByLabel(t.teamName, { exact: true }).fill(name);
  await button(dialog, t.save).click();
}

describe.skipIf(!chromiumAvailable).each(['zh', 'en'] as const)('administration in Chromium (%s)', (lang) => {
  const app = useConsole({ lang });
  const t = T[lang];
  const team = `Survey ${lang}`;

  it('a superadmin creates a team, its administrator and three users; the fourth user is refused', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    await page.goto('/manage/group');
    await addTeam(page, t, team);
    await toast(page, t.teamCreated);
    await page.getByText(team).first().waitFor();
    // A team with nobody in it can be removed, after confirmation.
    await addTeam(page, t, `${team} tmp`);
    await toast(page, t.teamCreated);
    await page.getByTestId(`team-delete-${await teamId(page, `${team} tmp`)}`).click();
    await confirm(page);
    await toast(page, t.deleted);
    await expect.poll(() => page.getByText(`${team} tmp`).count()).toBe(0);

    await addUser(page, t, { account: `boss_${lang}`, role: t.teamAdmin, team });
    await expectPath(page, '/manage/user');
    for (const n of [1, 2, 3]) {
      await addUser(page, t, { account: `crew${n}_${lang}`, role: t.user, team });
      await expectPath(page, '/manage/user');
    }
    // The form says the team is full before the user tries; the server refuses it anyway.
    await page.goto('/manage/user_edit');
    await choose(page, 'user-team', team);
    await page.getByTestId('user-team-limits').waitFor();
    expect(await page.getByTestId('user-team-limits').textContent()).toMatch(/3\s*\/\s*3/);
    const refused = await page.request.post('/api/user/save', {
      headers: { 'x-token': (await storage(page, 'token')) ?? '', 'x-lang': lang },
      data: {
        account: `crew4_${lang}`,
        name: 'Four',
        password: 'pass-1234',
        phone: '13800000000',
        email: 'f@example.org',
        group_id: await teamId(page, team),
        role: 'user',
      },
    });
    expect((await refused.json()).msg).toBe(t.limit);
  });

  it('the team administrator sees only their own team, and a user cannot open /manage/user', async () => {
    const page = await app.signIn(`boss_${lang}`, 'pass-1234');
    await page.goto('/manage/group');
    await page.getByText(team).first().waitFor();
    expect(await page.getByText('Demo Team 演示团队').count()).toBe(0);
    await page.goto('/manage/user');
    await page.getByText(`crew1_${lang}`).first().waitFor();
    expect(await page.getByText('demo_admin').count()).toBe(0);
    await signOut(page);
    await signIn(page, `crew1_${lang}`, 'pass-1234');
    await page.goto('/manage/user');
    await expectPath(page, '/403');
    await page.getByText(t.forbidden).waitFor();
  });

  it('a password change makes the old password fail', async () => {
    const page = await app.signIn(`crew2_${lang}`, 'pass-1234');
    await page.goto('/system/account');
    await field(page, t.currentPassword).fill('pass-1234');
    await field(page, t.newPassword).fill('pass-5678');
    await field(page, t.confirmPassword).fill('pass-5678');
    await button(page, t.changePassword).click();
    await page.locator('.ant-message-notice').first().waitFor();
    await signOut(page);
    await field(page, t.account).fill(`crew2_${lang}`);
    await field(page, t.password).fill('pass-1234');
    await button(page, t.signIn).click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain(t.wrongPassword);
    await signIn(page, `crew2_${lang}`, 'pass-5678');
  });

  it('a role-list edit changes what a user may open', async () => {
    const admin = await app.signIn('admin', ADMIN_PASSWORD);
    await admin.goto('/system/role');
    const box = admin.getByTestId('role-check-/identify-user');
    await box.waitFor();
    await box.uncheck();
    await button(admin, t.save).click();
    await admin.locator('.ant-message-notice').first().waitFor();

    const user = await app.signIn(`crew3_${lang}`, 'pass-1234');
    await user.goto('/identify');
    await expectPath(user, '/403');
    // And back.
    await box.check();
    await button(admin, t.save).click();
    await user.goto('/identify');
    await expectPath(user, '/identify');
  });

  it('a translation edit shows in the console after a reload', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    await page.goto('/manage/system');
    await page.getByTestId('lang-search').fill('route.about');
    const cell = page.getByTestId(`lang-cell-route.about-${lang}`);
    await cell.click();
    const newText = lang === 'zh' ? '关于本系统' : 'About this system';
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(newText);
    await page.keyboard.press('Enter');
    await page.getByTestId('lang-save').click();
    await page.locator('.ant-message-notice').first().waitFor();
    await page.reload();
    await page.getByTestId('sidebar-menu').getByText(newText).waitFor();
  });
});

async function teamId(page: Page, name: string): Promise<number> {
  const res = await page.request.get(`/api/group/index?name=${encodeURIComponent(name)}`, {
    headers: { 'x-token': (await storage(page, 'token')) ?? '' },
  });
  const teams = (await res.json()).data as { id: number; name: string }[];
  const team = teams.find((t) => t.name === name);
  if (!team) throw new Error(`no team ${name}`);
  return team.id;
}
