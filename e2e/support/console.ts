import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** Signs in through the login form and waits for the shell. */
export async function signIn(page: Page, account: string, password: string, path = '/login') {
  await page.goto(path);
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('header-user').waitFor();
}

export async function signOut(page: Page) {
  await page.getByTestId('logout-button').click();
  await page.getByTestId('logout-confirm').click();
  await page.waitForURL(/\/login/);
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

export async function expectPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
  expect(pathOf(page)).toBe(path);
}

export const storage = (page: Page, key: string) => page.evaluate((k) => window.localStorage.getItem(k), key);

/**
 * Picks a category and waits until the select shows it: right after an action the category list refetches its
 * counts and may re-render under the open dropdown, so a pick that did not take is made again.
 */
export async function chooseCategory(page: Page, name: string) {
  const option = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: name })
    .first();
  for (let attempt = 0; ; attempt++) {
    try {
      await page.getByTestId('identify-category').click({ timeout: 5000 });
      await option.click({ timeout: 5000 });
      await expect.poll(() => page.getByTestId('identify-category').textContent(), { timeout: 3000 }).toContain(name);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}
