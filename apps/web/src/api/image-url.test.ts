import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { imageUrl } from './client';

// The overview, galleries and image detail all show server image URLs through this one helper (spec §7).
describe('image URLs of ROIs', () => {
  it('put relative ROI addresses under the API base', () => {
    expect(imageUrl('roi/file/5d41402abc4b2a76')).toBe('/api/roi/file/5d41402abc4b2a76');
    expect(imageUrl('/roi/thumb/5d41402abc4b2a76')).toBe('/api/roi/thumb/5d41402abc4b2a76');
  });

  it('follow the configured request host', () => {
    localStorage.setItem(STORAGE_KEYS.apiHost, 'https://ipp.example.org/console/');
    expect(imageUrl('roi/file/abc')).toBe('https://ipp.example.org/console/api/roi/file/abc');
  });

  it('leave addresses with a colon alone (absolute, data:)', () => {
    localStorage.setItem(STORAGE_KEYS.apiHost, 'https://ipp.example.org');
    expect(imageUrl('https://cdn.example.org/roi/file/abc')).toBe('https://cdn.example.org/roi/file/abc');
    expect(imageUrl('blob:https://x/1')).toBe('blob:https://x/1');
  });
});
