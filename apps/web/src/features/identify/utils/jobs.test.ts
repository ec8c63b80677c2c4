import { describe, expect, it } from 'vitest';
import { isJobActive, jobPercent } from './jobs';

describe('job progress', () => {
  it('is under way while queued or running', () => {
    expect(isJobActive({ status: 'queued' })).toBe(true);
    expect(isJobActive({ status: 'running' })).toBe(true);
    expect(isJobActive({ status: 'cancelled' })).toBe(false);
    expect(isJobActive({ status: 'done' })).toBe(false);
  });

  it('rounds down, so 100 % means finished', () => {
    expect(jobPercent({ status: 'running', done: 999, total: 1000 })).toBe(99);
    expect(jobPercent({ status: 'queued', done: 0, total: 0 })).toBe(0);
    expect(jobPercent({ status: 'done', done: 0, total: 0 })).toBe(100);
  });
});
