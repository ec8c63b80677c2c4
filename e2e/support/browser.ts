import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { watchAnswers } from './answers.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = fs.existsSync(CHROMIUM_PATH);

if (!chromiumAvailable) {
  if (process.env.CI === 'true') throw new Error(`Chromium is required in CI but missing at ${CHROMIUM_PATH}`);
  console.warn(`\n*** SKIPPING the end-to-end suite: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium).\n`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  // Reduced motion: the console turns antd's animations off (hooks/use-reduced-motion.ts), so a click never lands on a
  // dialog or list still moving into place.
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  // Every JSON answer of the API is checked against its declared schema (support/answers.ts).
  watchAnswers(page, baseURL);
  return { context, page };
}
