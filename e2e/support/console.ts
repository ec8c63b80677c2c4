import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { choose } from './antd.ts';

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
 * Picks a category on the identify page and waits until the select shows it. One click each: the pages run with
 * reduced motion, and a list re-rendered under the open dropdown is found again by the locator.
 */
export async function chooseCategory(page: Page, name: string) {
  await choose(page, 'identify-category', name);
  await expect.poll(() => page.getByTestId('identify-category').textContent(), { timeout: 5000 }).toContain(name);
}
