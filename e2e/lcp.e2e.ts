import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

interface PaintFigures {
  lcp: number | null;
  fcp: number | null;
  /** The element of the last LCP entry, described: where it sits and what it shows. */
  element: {
    tag: string;
    testId: string | null;
    text: string;
    inHome: boolean;
    inShell: boolean;
    inSpinner: boolean;
    connected: boolean;
  } | null;
  lcpEntries: number;
  scripts: number;
  /** Bytes of JavaScript over the network (0 for each file the HTTP cache answered) and their decoded size. */
  jsTransferred: number;
  jsDecoded: number;
}

/** Opens /home in a new page of the context once the home page shows the signed-in user, and reads its paint entries. */
async function measureHome(context: BrowserContext): Promise<PaintFigures> {
  const page = await context.newPage();
  await page.goto('/home');
  await page.getByTestId('welcome-card').getByText('demo_admin').waitFor();
  await page.getByTestId('home-last-data').waitFor();
  // Let the last frames paint (LCP entries are queued after a frame is presented).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForTimeout(500);
  const figures = await page.evaluate(async (): Promise<PaintFigures> => {
    const entries = await new Promise<PerformanceEntry[]>((resolve) => {
      const observer = new PerformanceObserver((list) => {
        observer.disconnect();
        resolve(list.getEntries());
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
      setTimeout(() => resolve(observer.takeRecords()), 2000);
    });
    const last = entries.at(-1) as (PerformanceEntry & { element: Element | null }) | undefined;
    const element = last?.element ?? null;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) =>
      new URL(r.name).pathname.endsWith('.js'),
    );
    return {
      lcp: last ? last.startTime : null,
      fcp: fcp ? fcp.startTime : null,
      element: element && {
        tag: element.tagName.toLowerCase(),
        testId: element.closest('[data-testid]')?.getAttribute('data-testid') ?? null,
        text: (element.textContent ?? '').trim().slice(0, 60),
        inHome: element.closest('[data-testid="home-page"]') !== null,
        inShell: element.closest('.app-layout') !== null,
        inSpinner: element.closest('.ant-spin') !== null,
        connected: element.isConnected,
      },
      lcpEntries: entries.length,
      scripts: scripts.length,
      jsTransferred: scripts.reduce((sum, r) => sum + r.transferSize, 0),
      jsDecoded: scripts.reduce((sum, r) => sum + r.decodedBodySize, 0),
    };
  });
  await page.close();
  return figures;
}

const ms = (value: number | null) => (value === null ? 'none' : `${Math.round(value)} ms`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? null;
/** Fresh contexts, each measured cold then warm: the median is less at the mercy of a busy machine. */
const ROUNDS = 5;

function describeRun(name: string, f: PaintFigures) {
  const where = f.element
    ? `<${f.element.tag}> in ${f.element.testId ?? 'no test id'} "${f.element.text}"${f.element.inHome ? ' (home page)' : ''}`
    : 'no element';
  return (
    `/home ${name}: LCP ${ms(f.lcp)} (${f.lcpEntries} entries, the last ${where}), FCP ${ms(f.fcp)}, ` +
    `JavaScript ${f.scripts} files, ${kb(f.jsTransferred)} transferred (${kb(f.jsDecoded)} decoded)`
  );
}

/**
 * Largest Contentful Paint of the overview (/home) for a signed-in user, in Chromium against the real server: in a
 * fresh context (empty HTTP cache), then again in the same context (the cache the first load filled). The figures
 * are printed for docs/benchmarks.md, not asserted (timing belongs to benchmarks). The test asserts what the
 * figure means: the largest paint is the signed-in console's content (the home page or the header naming the
 * user), still on screen, not the loading indicator; and the repeat view takes every script from the cache.
 */
describe.skipIf(!chromiumAvailable)('Largest Contentful Paint of /home in Chromium', () => {
  const app = useConsole();

  it('paints the console content largest, cold and with a warm cache', async () => {
    const viewport = { width: 1366, height: 800 };
    // Sign in once; the session (local storage) goes into new contexts, whose HTTP caches are empty.
    const signing = await app.signIn('demo_admin', DEMO_PASSWORD);
    const storageState = await signing.context().storageState();
    await signing.context().close();

    const cold: PaintFigures[] = [];
    const warm: PaintFigures[] = [];
    // Headless Chromium now and then reports no paint after the loading indicator's (1 warm load in 30 here, several in
    // a row in one context on CI: the welcome card on screen, no entry for it, no input or scroll in between), so the
    // only entry names an element that is gone. Such a load measured nothing: the round is counted and another context
    // measured instead. A console whose largest paint really were the indicator would give no measured round at all.
    let unmeasured = 0;
    const measured = (f: PaintFigures) => !(f.lcpEntries === 1 && f.element === null);
    // Up to 30 contexts: a CI run with the server suites beside it saw 8 of 10 unmeasured (2 left, below the 3 needed),
    // an idle machine 6 of 10; the loop stops at ROUNDS measured, so a calm run pays nothing for the margin.
    for (let round = 1; cold.length < ROUNDS && round <= ROUNDS * 6; round++) {
      // A plain context, as a visitor's browser has it (animations on): the paints are measured as they come.
      const context = await app.browser.newContext({ baseURL: app.server.url, viewport, storageState });
      const first = await measureHome(context);
      const again = await measureHome(context);
      await context.close();
      console.log(describeRun(`cold #${round}`, first));
      console.log(describeRun(`warm #${round}`, again));
      if (!measured(first) || !measured(again)) {
        unmeasured++;
        continue;
      }
      cold.push(first);
      warm.push(again);
    }
    console.log(`/home rounds without a paint reported after the loading indicator: ${unmeasured}`);
    expect(cold.length).toBeGreaterThanOrEqual(3);
    const medianOf = (runs: PaintFigures[], pick: (f: PaintFigures) => number | null) =>
      ms(median(runs.map(pick).filter((v): v is number => v !== null)));
    console.log(
      `/home median of ${cold.length}: cold LCP ${medianOf(cold, (f) => f.lcp)}, FCP ${medianOf(cold, (f) => f.fcp)}; ` +
        `warm LCP ${medianOf(warm, (f) => f.lcp)}, FCP ${medianOf(warm, (f) => f.fcp)}; ` +
        `JavaScript cold ${kb(cold[0]!.jsTransferred)} transferred, warm ${kb(warm[0]!.jsTransferred)}`,
    );

    for (const f of [...cold, ...warm]) {
      expect(f.lcp).not.toBeNull();
      expect(f.fcp).not.toBeNull();
      expect(f.element).toMatchObject({ connected: true, inShell: true, inSpinner: false });
      expect(f.element?.inHome || f.element?.testId === 'header-user').toBe(true);
    }
    // Hashed assets are immutable: the first load fetched the scripts, the repeat view found them all in the cache.
    for (const f of cold) expect(f.jsTransferred).toBeGreaterThan(0);
    for (const f of warm) expect(f.jsTransferred).toBe(0);
    // Thirty contexts at worst, about 4 s each on a busy machine.
  }, 180_000);
});
