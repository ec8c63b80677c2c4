import { describe, expect, it } from 'vitest';
import { normalizeHost } from './api-host';
import { loginPathFor, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('follows in-app paths', () => {
    expect(safeRedirect('/manage/ipp?page=2')).toBe('/manage/ipp?page=2');
  });

  it('goes home for anything that could leave the app or loop', () => {
    for (const raw of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', '/login', '/login?x=1']) {
      expect(safeRedirect(raw)).toBe('/home');
    }
  });
});

describe('loginPathFor', () => {
  it('drops a deep-link token from the redirect', () => {
    expect(loginPathFor('/ipp/ipp-view-detail', '?id=3&token=secret')).toBe('/login?redirect=%2Fipp%2Fipp-view-detail%3Fid%3D3');
  });
});

describe('normalizeHost', () => {
  it('accepts empty (same origin) and http(s) addresses, without a trailing slash', () => {
    expect(normalizeHost('  ')).toBe('');
    expect(normalizeHost('http://192.168.1.10:8080/')).toBe('http://192.168.1.10:8080');
    expect(normalizeHost('https://ipp.example.org/console/')).toBe('https://ipp.example.org/console');
  });

  it('rejects anything else', () => {
    for (const raw of ['192.168.1.10', 'ftp://x.org', 'javascript:alert(1)', 'http://x.org/?a=1']) {
      expect(normalizeHost(raw)).toBeNull();
    }
  });
});
