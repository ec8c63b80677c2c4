import { describe, expect, it } from 'vitest';
import { prepareGridDataDir } from '../bench/src/grid-data.ts';
import { choose } from './support/antd.ts';
import { chromiumAvailable } from './support/browser.ts';
import { useConsole } from './support/use-console.ts';

/** ROIs of one station, loaded into the grid 200 a page. */
const ROIS = 10_000;
/** The DOM budget for the whole identify page with every ROI loaded. */
const DOM_BUDGET = 1_400;

/**
 * The identify grid at scale, in Chromium against the real server: every one of 10,000 ROIs loaded by scrolling,
 * the page stays within the DOM budget, the last ROI can be reached, and thumbnails seen once come from the
 * browser's cache afterwards (immutable, content-addressed: not even revalidated). Long tasks while scrolling are
 * measured and printed (docs/benchmarks.md), not asserted: timing belongs to benchmarks.
 */
describe.skipIf(!chromiumAvailable)('identify grid with 10,000 ROIs in Chromium', () => {
  const app = useConsole({
    server: async () => ({ dataDir: await prepareGridDataDir({ rois: ROIS, predicted: false }) }),
    viewport: { width: 1600, height: 1000 },
  });

  it('loads them all by scrolling within the DOM budget and reuses cached thumbnails', async () => {
    const page = await app.signIn('bench', 'bench-pass');
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-station', 'Bench 1');
    const grid = page.getByTestId('identify-grid');
    const scroller = page.getByTestId('identify-grid-scroller');
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 30_000 }).toBe('200');

    // Long tasks from here on (the Performance API's longtask entries).
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    });
    // Scroll to the end until every page is loaded.
    const started = Date.now();
    for (;;) {
      const count = Number(await grid.getAttribute('data-count'));
      if (count >= ROIS) break;
      if (Date.now() - started > 180_000) throw new Error(`only ${count} ROIs loaded in 3 minutes`);
      await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.waitForTimeout(50);
    }
    expect(await grid.getAttribute('data-count')).toBe(String(ROIS));
    const loadMs = Date.now() - started;
    const loadingTasks = await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      const seen = w.longTasks;
      w.longTasks = [];
      return seen;
    });

    // Scroll through all of it in screen-sized steps, then count the page's elements.
    const steps = await scroller.evaluate(async (el) => {
      el.scrollTo({ top: 0 });
      let n = 0;
      while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
        el.scrollBy({ top: el.clientHeight });
        n++;
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }
      return n;
    });
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const rendered = Number(await grid.getAttribute('data-rendered'));
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const longest = (tasks: number[]) => Math.round(Math.max(0, ...tasks));
    console.log(
      `grid: ${ROIS} ROIs loaded by scrolling in ${loadMs} ms (long tasks ${loadingTasks.length}, longest ` +
        `${longest(loadingTasks)} ms); then ${steps} screen-sized scrolls through all of them (long tasks ` +
        `${longTasks.length}, longest ${longest(longTasks)} ms); ${nodes} elements in the page, ${rendered} cells rendered`,
    );
    expect(nodes).toBeLessThanOrEqual(DOM_BUDGET);
    expect(rendered).toBeLessThan(200);
    // The oldest ROI is the last cell, now in view.
    expect(await page.locator('[data-testid^="roi-cell-"]').last().getAttribute('data-testid')).toBe(`roi-cell-${ROIS}`);

    // A repeat view (the page loaded again): its thumbnails come from the browser's cache, not even revalidated.
    await page.reload();
    await page.getByTestId('identify-page').waitFor();
    await expect.poll(() => grid.getAttribute('data-count'), { timeout: 30_000 }).toBe('200');
    await expect
      .poll(() =>
        page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('.thumb.webp')).length),
      )
      .toBeGreaterThan(0);
    const thumbs = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('.thumb.webp'))
        .map((e) => ({
          transfer: (e as PerformanceResourceTiming).transferSize,
          body: (e as PerformanceResourceTiming).decodedBodySize,
        })),
    );
    console.log(
      `grid: repeat view, ${thumbs.length} thumbnails, ${thumbs.reduce((a, t) => a + t.transfer, 0)} bytes transferred`,
    );
    expect(thumbs.every((t) => t.transfer === 0 && t.body > 0)).toBe(true);
  }, 300_000);
});
