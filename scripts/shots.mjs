#!/usr/bin/env node
// Screenshots of console pages at 1440x900 in Debian's Chromium, as a person would see them (the review step before
// an issue is resolved). Signs in through the real form, sets the language, visits each path, waits for the network
// to settle and writes one PNG per path.
//   node scripts/shots.mjs --url http://127.0.0.1:8080 --user demo_admin --password demo123 --lang en \
//     --out /tmp/shots /home /manage/ipp '/identify?x=1'
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const url = opt('url', 'http://127.0.0.1:8080');
const user = opt('user', 'demo_admin');
const password = opt('password', 'demo123');
const lang = opt('lang', 'zh');
const out = opt('out', '/tmp/shots');
const settle = Number(opt('wait', '1500'));
const paths = args.length > 0 ? args : ['/home'];

fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: url });
  await context.addInitScript((language) => globalThis.localStorage.setItem('language', language), lang);
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-username').fill(user);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('header-user').waitFor({ timeout: 30_000 });
  for (const target of paths) {
    await page.goto(target);
    await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined);
    await page.waitForTimeout(settle);
    const name = `${lang}-${user}-${target.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root'}.png`;
    const file = path.join(out, name);
    await page.screenshot({ path: file });
    console.log(file);
  }
} finally {
  await browser.close();
}
