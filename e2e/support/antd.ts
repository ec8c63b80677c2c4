import type { Page } from 'playwright-core';

/**
 * Opens an antd Select by its test id and picks the option with this visible text. On a busy machine the dropdown can
 * close again before the click lands (seen in CI: a Select inside a dialog still opening; the option "not stable",
 * then "not visible"), so the Select is opened again, a few times, until the click on the option goes through.
 */
export async function choose(page: Page, testId: string, optionText: string) {
  const option = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: optionText })
    .first();
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId(testId).click();
    try {
      await option.click({ timeout: 5000 });
      return;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
}

/**
 * Clicks the OK button of the open confirmation (Popconfirm or Modal.confirm) and waits for the dialog to go. On a
 * busy machine a click that lands during the dialog's opening animation can be lost (seen in CI: the dialog stayed
 * open and nothing ran), so it is clicked again while the dialog is still there and not yet working (an OK button
 * that is loading is never clicked twice).
 */
export async function confirm(page: Page) {
  // This dialog's button, not whichever confirmation is last later on (a second dialog may follow this one).
  const ok = await page.getByTestId('confirm-ok').last().elementHandle();
  if (!ok) throw new Error('no confirmation is open');
  await ok.click();
  for (let attempt = 0; attempt < 10; attempt++) {
    if (
      await ok.waitForElementState('hidden', { timeout: 3000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    const working = await ok.evaluate((el) => el.classList.contains('ant-btn-loading')).catch(() => true);
    if (!working) await ok.click({ timeout: 3000 }).catch(() => undefined);
  }
}

/** Waits for an antd message or notification containing the text. */
export async function toast(page: Page, text: string | RegExp) {
  await page.locator('.ant-message-notice, .ant-notification-notice', { hasText: text }).first().waitFor();
}

export async function setLanguage(page: Page, lang: 'zh' | 'en') {
  await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
}
