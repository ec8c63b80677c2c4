import { describe, expect, it } from 'vitest';
import { ApiError, parseRetryAfter, retryDelayMs, withRetry } from '../../src/simulator/http-transport.ts';

describe('the simulator obeys Retry-After', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 28 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    // A date already past: retry now.
    expect(parseRetryAfter('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });

  it('waits at least what the server asked, up to half again, and backs off with jitter otherwise', () => {
    const busy = new ApiError(503, 1003, 'busy', 4000);
    expect(busy.throttled && busy.retryable).toBe(true);
    expect(retryDelayMs(busy, 500, () => 0)).toBe(4000);
    expect(retryDelayMs(busy, 500, () => 0.999)).toBeCloseTo(5998, 0);
    // A 503 from a proxy without Retry-After is a fault to back off from, not a throttle.
    const fault = new ApiError(503, 0, 'HTTP 503: Service Unavailable');
    expect(fault.throttled).toBe(false);
    expect(retryDelayMs(fault, 1000, () => 0)).toBe(750);
    expect(retryDelayMs(fault, 1000, () => 1)).toBe(1250);
    expect(new ApiError(400, 1002, 'bad').retryable).toBe(false);
  });

  it('withRetry sends again only after the Retry-After has passed', async () => {
    const calls: number[] = [];
    const started = Date.now();
    const result = await withRetry(async () => {
      calls.push(Date.now() - started);
      if (calls.length < 2) throw new ApiError(429, 1003, 'too many', 1000);
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(calls).toHaveLength(2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(990);
  });
});
