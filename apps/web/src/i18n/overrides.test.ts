import { afterEach, describe, expect, it, vi } from 'vitest';
import { getLangOverrides, LANG_PAGE_SIZE } from '@/api/get-lang-overrides';
import { setApiNotifier } from '@/api/notifier';
import { jsonResponse } from '@/test/render';
import { BUNDLED_STRINGS } from './bundled';
import { applyOverrides, i18n } from './index';

afterEach(() => {
  applyOverrides('zh', []);
  applyOverrides('en', []);
});

describe('applyOverrides', () => {
  it('lays server texts over the bundled strings of that language only', () => {
    applyOverrides('en', [
      { key: 'app.name', text: 'Plankton Desk' },
      { key: 'route.teams', text: 'Crews' },
    ]);
    expect(i18n.t('app.name', { lng: 'en' })).toBe('Plankton Desk');
    expect(i18n.t('route.teams', { lng: 'en' })).toBe('Crews');
    expect(i18n.t('route.users', { lng: 'en' })).toBe(BUNDLED_STRINGS.en['route.users']);
    expect(i18n.t('app.name', { lng: 'zh' })).toBe(BUNDLED_STRINGS.zh['app.name']);
  });

  it('returns to the bundled text when an override is gone', () => {
    applyOverrides('zh', [{ key: 'app.name', text: '浮游控制台' }]);
    expect(i18n.t('app.name', { lng: 'zh' })).toBe('浮游控制台');
    applyOverrides('zh', []);
    expect(i18n.t('app.name', { lng: 'zh' })).toBe('IPP 控制台');
  });

  it('ignores keys this build does not use, and empty texts', () => {
    applyOverrides('en', [
      { key: 'app', text: 'would replace a whole group' },
      { key: 'old.removed.key', text: 'x' },
      { key: 'app.tagline', text: '' },
    ]);
    expect(i18n.t('app.name', { lng: 'en' })).toBe('IPP Console');
    expect(i18n.t('app.tagline', { lng: 'en' })).toBe(BUNDLED_STRINGS.en['app.tagline']);
    expect(i18n.exists('old.removed.key', { lng: 'en' })).toBe(false);
  });
});

describe('getLangOverrides', () => {
  it('reads every page of the language, 500 at a time', async () => {
    const total = LANG_PAGE_SIZE + 2;
    const fetchMock = vi.fn<typeof fetch>(async (input) => {
      const url = new URL(String(input), 'http://localhost');
      const page = Number(url.searchParams.get('page'));
      const start = (page - 1) * LANG_PAGE_SIZE;
      const items = Array.from({ length: Math.max(0, Math.min(LANG_PAGE_SIZE, total - start)) }, (_, i) => ({
        key: `k${start + i}`,
        text: `t${start + i}`,
      }));
      return jsonResponse({ code: 1000, data: items, model: null, count: total, index: null });
    });
    vi.stubGlobal('fetch', fetchMock);
    const entries = await getLangOverrides('en');
    expect(entries).toHaveLength(total);
    expect(fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').search)).toEqual([
      '?language=en&limit=500&page=1',
      '?language=en&limit=500&page=2',
    ]);
  });

  it('fails silently, so a dead server never interrupts the console', async () => {
    const error = vi.fn();
    const remove = setApiNotifier({ error, signedOut: vi.fn() });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    await expect(getLangOverrides('zh')).rejects.toThrow();
    expect(error).not.toHaveBeenCalled();
    remove();
  });
});
