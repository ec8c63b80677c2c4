import type { Locator, Page } from 'playwright-core';

/** Opens an antd Select by its test id and picks the option with this visible text. */
export async function choose(page: Page, testId: string, optionText: string) {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: optionText })
    .first()
    .click();
}

/**
 * Clicks the OK button of the open confirmation (Popconfirm or Modal.confirm) and waits for the dialog to go. The
 * pages run with reduced motion (support/use-console.ts), so the dialog is in place when it is clicked: no second click.
 */
export async function confirm(page: Page) {
  // This dialog's button, not whichever confirmation is last later on (a second dialog may follow this one).
  const ok = await page.getByTestId('confirm-ok').last().elementHandle();
  if (!ok) throw new Error('no confirmation is open');
  await ok.click();
  await ok.waitForElementState('hidden');
}

/** Waits for an antd message or notification containing the text. */
export async function toast(page: Page, text: string | RegExp) {
  await page.locator('.ant-message-notice, .ant-notification-notice', { hasText: text }).first().waitFor();
}

/**
 * A button by its whole visible name, as the translation file writes it. What a screen reader is told differs in two
 * ways antd has: an icon in the button names itself first ("plus Add team"), and a name of two Chinese characters is
 * spaced ("保存" shows as "保 存"). Both are allowed for here.
 */
export function button(scope: Page | Locator, name: string) {
  const shown = /^\p{Script=Han}{2}$/u.test(name) ? [...name].join(' ') : name;
  return scope.getByRole('button', { name: new RegExp(`(^|\\s)${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
}
