/**
 * Issue 25's figure: in Chromium with 10,000 predicted ROIs of one station, work through them with the keyboard alone
 * and time each key from its keydown event to the first animation frame that shows its answer.
 * Per round: → (focus), Space, Esc, Ctrl+A (select the loaded 200: more than a screen of 100), V (validate them), U
 * (undo); then three times V on the focused image alone (validate and go on) and U. The floor is Space (select the focused image: no
 * request), measured in the same run; every figure is a median (and the worst) over the rounds, with its ratio to
 * the floor. After the rounds the database's counts are compared with the counts before: every undo gave back
 * exactly what its validation changed.
 *
 *   npm run bench:validate                 # 5 rounds, prints the table
 *   npm run bench:validate -- --write      # also rewrites its block in docs/benchmarks.md
 *   --rounds N
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { prepareGridDataDir } from './grid-data.ts';
import { repoRoot, startServerProcess } from './server-process.ts';

const { values: flags } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, write: { type: 'boolean', default: false } },
});
const ROUNDS = Number(flags.rounds);
const ROIS = 10_000;
const PAGE = 200;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Counts an undo must give back exactly: the labels and the maintained counts. */
async function counts(dataDir: string) {
  const db = openDatabase({ dataDir });
  try {
    const k = db.kysely;
    const byLabel = await k
      .selectFrom('rois')
      .select(['hi', 'class_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['hi', 'class_id'])
      .orderBy('hi')
      .orderBy('class_id')
      .execute();
    const kinds = await k.selectFrom('roi_class_counts').selectAll().orderBy('kind').orderBy('class_key').execute();
    const hours = await k
      .selectFrom('roi_rollup_hour')
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .executeTakeFirst();
    return JSON.stringify({ byLabel, kinds: kinds.filter((r) => Number(r.n) !== 0), hours: Number(hours?.n ?? 0) });
  } finally {
    await db.close();
  }
}

/**
 * Presses a key and answers the ms from the browser's keydown event (its timeStamp, the page's clock) to the first
 * animation frame in which `done` holds: a watcher checks it every frame from before the press, so no round trip of
 * the test driver is counted.
 */
async function timed(page: Page, key: string, done: string): Promise<number> {
  // As a string: tsx names the functions it compiles (__name), which does not exist in the page.
  await page.evaluate(`(() => {
    window.keyAt = undefined;
    window.doneAt = undefined;
    window.addEventListener('keydown', (event) => { window.keyAt ??= event.timeStamp; }, { once: true, capture: true });
    const check = () => {
      if (window.keyAt !== undefined && (${done})) window.doneAt = performance.now();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })()`);
  await page.keyboard.press(key);
  const handle = await page.waitForFunction(
    () => {
      const w = window as unknown as { keyAt?: number; doneAt?: number };
      return w.doneAt !== undefined && w.keyAt !== undefined ? w.doneAt - w.keyAt : 0;
    },
    undefined,
    { timeout: 30_000 },
  );
  return Number(await handle.jsonValue());
}

const marksOf = `[...document.querySelectorAll('[data-testid^="roi-cell-"]')].map((el) => el.getAttribute('data-mark'))`;
const selected = `Number(document.querySelector('[data-testid="identify-selection-count"]').getAttribute('data-count'))`;
const focusedCell = `document.querySelector('[data-focused="true"]')`;

const dataDir = await prepareGridDataDir({ rois: ROIS, predicted: true });
const before = await counts(dataDir);
const server = await startServerProcess({ dataDir });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const samples: Record<string, number[]> = {};
let requests: Record<string, number[]> = {};
const add = (name: string, ms: number) => (samples[name] ??= []).push(ms);
try {
  // bypassCSP: Playwright's polled string predicates use eval in the page, which the console's CSP forbids.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: server.url, bypassCSP: true });
  await context.addInitScript(() => window.localStorage.setItem('language', 'en'));
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-username').fill('bench');
  await page.getByTestId('login-password').fill('bench-pass');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('header-user').waitFor();
  await page.goto('/identify');
  // Room for every request's timing (thumbnails fill the default 250).
  await page.evaluate('performance.setResourceTimingBufferSize(100000)');
  await page.getByTestId('identify-station').click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Bench 1' })
    .click();
  await page.waitForFunction(`document.querySelector('[data-testid="identify-grid"]')?.getAttribute('data-count') === '${PAGE}'`);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let round = 0; round < ROUNDS; round++) {
    add('→ focus an image', await timed(page, 'ArrowRight', `${focusedCell} !== null`));
    add('Space select it (floor)', await timed(page, ' ', `${selected} === 1`));
    add('Esc clear the selection', await timed(page, 'Escape', `${selected} === 0`));
    add('Ctrl+A select the 200 loaded', await timed(page, 'Control+a', `${selected} === ${PAGE}`));
    add('V validate the 200', await timed(page, 'v', `${selected} === 0 && ${marksOf}.every((m) => m === 'validated')`));
    await page.getByTestId('identify-undo').waitFor();
    add('U undo the 200', await timed(page, 'u', `${marksOf}.every((m) => m === 'predicted')`));
    await page.getByTestId('identify-undo').waitFor({ state: 'detached' });
    for (let i = 0; i < 3; i++) {
      const id = await page.locator('[data-focused="true"]').getAttribute('data-testid');
      const cell = `document.querySelector('[data-testid="${id}"]')?.getAttribute('data-mark')`;
      add(
        'V validate the focused one, go on',
        await timed(page, 'v', `${cell} === 'validated' && ${focusedCell}?.getAttribute('data-testid') !== '${id}'`),
      );
      await page.getByTestId('identify-undo').waitFor();
      add('U undo that one', await timed(page, 'u', `${cell} === 'predicted'`));
      await page.getByTestId('identify-undo').waitFor({ state: 'detached' });
    }
  }
  // Where the time goes: the requests' own durations (Resource Timing), by call.
  requests = await page.evaluate(`(() => {
    const out = {};
    for (const e of performance.getEntriesByType('resource')) {
      const m = e.name.match(/\\/api\\/roi\\/(save-move|undo|index)/);
      if (m) (out[m[1]] ??= []).push(e.duration);
    }
    return out;
  })()`);
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

// Every validation was undone: the labels and the maintained counts must be exactly as before.
const after = await counts(dataDir);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = median(samples['Space select it (floor)']!);
const rows = Object.entries(samples).map(([name, xs]) => {
  const m = median(xs);
  return `| ${name} | ${m.toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms | ${(m / floor).toFixed(1)}× |`;
});
const table = ['| key (answered on screen) | median | worst | × floor |', '|---|---|---|---|', ...rows].join('\n');
const requestLine = Object.entries(requests)
  .map(([name, xs]) => `${name} ${median(xs).toFixed(0)} ms (${xs.length} calls)`)
  .join(', ');
const keys = 'Ctrl+A, V: 2 key presses validate the loaded 200 (a screen holds about 30 at 120 px, 100 at 80 px)';
console.log(table);
console.log(keys);
console.log(`requests (median duration in the browser): ${requestLine}`);
const exact = before === after;
console.log(`counts after ${ROUNDS * 4} validations and their undos: ${exact ? 'exactly as before' : 'CHANGED'}`);
if (!exact) process.exitCode = 1;
fs.rmSync(dataDir, { recursive: true, force: true });
if (flags.write) {
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const text = fs.readFileSync(file, 'utf8');
  const marker = 'validate';
  const section = `<!-- ${marker}:start -->\n${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}, Chromium, SQLite, ${ROIS.toLocaleString('en')} predicted ROIs of one station, ${ROUNDS} rounds. ${keys}. Requests, median duration in the browser: ${requestLine}. Counts after every validation was undone: ${exact ? 'exactly as before' : 'CHANGED'}.\n\n${table}\n<!-- ${marker}:end -->`;
  const updated = text.includes(`<!-- ${marker}:start -->`)
    ? text.replace(new RegExp(`<!-- ${marker}:start -->[\\s\\S]*<!-- ${marker}:end -->`), section)
    : `${text.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, updated);
}
