import { describe, expect, it, vi } from 'vitest';
import { importOf, LAZY_TIMEOUT_MS, loadWithRetry, LoadTimeoutError } from './lazy-with-retry';

describe('loadWithRetry', () => {
  it('resolves on the first success', async () => {
    const load = vi.fn(async () => 'page');
    await expect(loadWithRetry(load)).resolves.toBe('page');
    expect(load).toHaveBeenCalledOnce();
  });

  it('retries a failed load up to two more times', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('chunk 1'))
      .mockRejectedValueOnce(new Error('chunk 2'))
      .mockResolvedValueOnce('page');
    await expect(loadWithRetry(load)).resolves.toBe('page');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('rejects with the last error after three failures', async () => {
    const load = vi.fn(async () => {
      throw new Error(`failed ${load.mock.calls.length}`);
    });
    await expect(loadWithRetry(load)).rejects.toThrow('failed 3');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('fails within the 120 s of spec §9 in all when the chunk never arrives, each retry a fresh download', async () => {
    vi.useFakeTimers();
    try {
      // A route loader as the build writes it, whose chunk request never answers (issue 20: 3 × 120 s = 360 s).
      const load = built(
        '()=>vt(()=>import(`./home-page-DWpmqOPD.js`).then(e=>({default:e.HomePage})),__vite__mapDeps([12,1]))',
        () => new Promise<never>(() => undefined),
      );
      const urls: string[] = [];
      const importModule = vi.fn((url: string) => {
        urls.push(url);
        return new Promise<never>(() => undefined);
      });
      const started = Date.now();
      let settled: unknown = 'pending';
      void loadWithRetry(load, { importModule }).catch((error: unknown) => (settled = error));
      await vi.advanceTimersByTimeAsync(LAZY_TIMEOUT_MS - 1);
      expect(settled).toBe('pending');
      // The retries did not wait on the stuck request again: two new downloads, each under a URL of its own.
      expect(load).toHaveBeenCalledOnce();
      expect(urls).toHaveLength(2);
      for (const url of urls) expect(url).toMatch(/\/home-page-DWpmqOPD\.js\?retry=\d+$/);
      expect(new Set(urls).size).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBeInstanceOf(LoadTimeoutError);
      expect((settled as Error).message).toBe(`Page did not load within ${LAZY_TIMEOUT_MS} ms`);
      expect(Date.now() - started).toBe(LAZY_TIMEOUT_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a failed chunk with a fresh download and takes the same export from it', async () => {
    const load = built(
      '()=>vt(()=>import(`./home-page-DWpmqOPD.js`).then(e=>({default:e.HomePage})),__vite__mapDeps([12,1]))',
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );
    const importModule = vi.fn(async (url: string) => {
      if (importModule.mock.calls.length === 1) throw new TypeError(`Failed to fetch dynamically imported module: ${url}`);
      return { HomePage: 'the page', Other: 'not this' };
    });
    await expect(loadWithRetry(load, { importModule })).resolves.toEqual({ default: 'the page' });
    expect(load).toHaveBeenCalledOnce();
    expect(importModule).toHaveBeenCalledTimes(2);
    expect(importModule.mock.calls[0]![0]).not.toBe(importModule.mock.calls[1]![0]);
  });

  it('gives a retry its share of the time left, whether the tries before failed at once or hung', async () => {
    vi.useFakeTimers();
    try {
      const load = built('()=>import("./zh-Cx1.js").then(e=>e.default)', () => Promise.reject(new Error('offline')));
      const seen: number[] = [];
      const started = Date.now();
      const importModule = vi.fn(() => {
        seen.push(Date.now() - started);
        return new Promise<never>(() => undefined);
      });
      const result = loadWithRetry(load, { importModule }).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(LAZY_TIMEOUT_MS);
      // Failed at once, then two hung tries of 60 s each: still 120 s in all.
      expect(seen).toEqual([0, LAZY_TIMEOUT_MS / 2]);
      expect(await result).toBeInstanceOf(LoadTimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('importOf', () => {
  it('reads the module and the export a loader takes, as the build and the dev server write loaders', () => {
    expect(
      importOf(built('()=>vt(()=>import(`./home-page-D.js`).then(e=>({default:e.HomePage})),__vite__mapDeps([1]))')),
    ).toEqual({
      specifier: './home-page-D.js',
      pick: { name: 'HomePage', asDefault: true },
    });
    expect(
      importOf(built('() => import("/src/features/home/pages/home-page.tsx").then((m) => ({ default: m.HomePage }))')),
    ).toEqual({
      specifier: '/src/features/home/pages/home-page.tsx',
      pick: { name: 'HomePage', asDefault: true },
    });
    expect(importOf(built("()=>import('./en-B2.js').then(e=>e.default)"))).toEqual({
      specifier: './en-B2.js',
      pick: { name: 'default', asDefault: false },
    });
    expect(importOf(built('()=>vt(()=>import(`./echarts-C.js`),__vite__mapDeps([3,4]))'))).toEqual({
      specifier: './echarts-C.js',
    });
  });

  it('leaves a loader it cannot read to itself', () => {
    expect(importOf(built('()=>import(`./a.js`).then(e=>e.default??e)'))).toBeNull();
    expect(importOf(built('()=>Promise.all([import(`./a.js`),import(`./b.js`)])'))).toBeNull();
    expect(importOf(built('()=>fetchPage()'))).toBeNull();
  });
});

/** A loader whose source text reads `source` (what String(fn) gives for the built code), doing `run`. */
function built<T>(source: string, run: () => Promise<T> = () => new Promise<T>(() => undefined)) {
  const load = vi.fn(run);
  load.toString = () => source;
  return load;
}
