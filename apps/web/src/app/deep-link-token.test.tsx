import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/i18n';
import { dropTokenFromAddressBar, searchWithoutToken } from '@/lib/redirect';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { callsTo, mockServer } from '@/test/mock-server';
import { renderRoutes } from '@/test/render';
import { appRouteObjects } from './router';

beforeEach(async () => {
  await setLanguage('zh');
});
afterEach(() => window.history.replaceState(null, '', '/'));

describe('a sign-in link token (issue 20)', () => {
  it('leaves the address bar as soon as the page renders, before user-info has answered', async () => {
    window.history.replaceState({ kept: 1 }, '', '/ipp/ipp-view?id=5&token=link-token#top');
    // user-info never answers in this test: the token must be gone anyway.
    const fetchMock = mockServer({ '/api/wyrbac/login/user-info': () => new Promise<Response>(() => undefined) });
    renderRoutes(appRouteObjects, ['/ipp/ipp-view?id=5&token=link-token']);
    expect(window.location.pathname).toBe('/ipp/ipp-view');
    expect(window.location.search).toBe('?id=5');
    expect(window.location.hash).toBe('#top');
    expect(window.history.state).toEqual({ kept: 1 });
    // The sign-in still uses the token it read.
    await waitFor(() => expect(callsTo(fetchMock, '/api/wyrbac/login/user-info')).toHaveLength(1));
    const init = callsTo(fetchMock, '/api/wyrbac/login/user-info')[0]?.init;
    expect(new Headers(init?.headers).get('X-Token')).toBe('link-token');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('is also dropped when a session is already stored', () => {
    expect(searchWithoutToken('?token=a')).toBe('');
    expect(searchWithoutToken('?id=1&token=a&x=2')).toBe('?id=1&x=2');
    expect(searchWithoutToken('?id=1')).toBe('?id=1');
    window.history.replaceState(null, '', '/home?token=abc');
    expect(dropTokenFromAddressBar()).toBe(true);
    expect(window.location.href).toMatch(/\/home$/);
    expect(dropTokenFromAddressBar()).toBe(false);
  });
});
