import { describe, expect, it, vi } from 'vitest';
import { LAZY_TIMEOUT_MS, loadWithRetry, LoadTimeoutError } from './lazy-with-retry';

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

  it('counts a load still pending after 120 s as failed', async () => {
    vi.useFakeTimers();
    const load = vi.fn(() => new Promise<string>(() => undefined));
    const result = loadWithRetry(load).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(LAZY_TIMEOUT_MS - 1);
    expect(load).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(LAZY_TIMEOUT_MS * 2);
    expect(await result).toBeInstanceOf(LoadTimeoutError);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
