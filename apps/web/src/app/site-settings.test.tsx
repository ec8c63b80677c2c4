import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { mockServer, signIn, USER_INFO } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { appRouteObjects } from './router';

const INIT = { site_title: 'Sea Lab', logo: '', default_language: 'en', idle_minutes: 45, map_tile_url: '', wall_max: 100 };

beforeEach(async () => {
  await setLanguage('zh');
});

describe('site settings at start', () => {
  it('uses the configured title and the default language of a visitor who never chose one', async () => {
    localStorage.removeItem(STORAGE_KEYS.language);
    mockServer({ '/api/setting/get-set-init': () => okEnvelope(INIT) });
    renderRoutes(appRouteObjects, ['/login']);
    expect(await screen.findByText('Sea Lab')).toBeTruthy();
    await waitFor(() => expect(i18n.language).toBe('en'));
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBeNull();
  });

  it('keeps the language the user chose', async () => {
    await setLanguage('zh');
    mockServer({ '/api/setting/get-set-init': () => okEnvelope(INIT) });
    renderRoutes(appRouteObjects, ['/login']);
    await screen.findByText('Sea Lab');
    expect(i18n.language).toBe('zh');
  });

  it('prompts a superadmin without a logo to upload one, linking to the configuration', async () => {
    mockServer({
      '/api/setting/get-set-init': () => okEnvelope({ ...INIT, default_language: 'zh' }),
      '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    });
    signIn('superadmin');
    renderRoutes(appRouteObjects, ['/home']);
    const prompt = await screen.findByTestId('home-logo-prompt');
    expect(prompt.querySelector('a')?.getAttribute('href')).toBe('/system/config');
    expect(screen.getByTestId('site-brand').textContent).toBe('Sea Lab');
  });

  it('shows the logo instead of the prompt once there is one', async () => {
    mockServer({
      '/api/setting/get-set-init': () => okEnvelope({ ...INIT, default_language: 'zh', logo: 'setting/logo?v=1' }),
      '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    });
    signIn('superadmin');
    renderRoutes(appRouteObjects, ['/home']);
    await screen.findByTestId('welcome-card');
    await waitFor(() =>
      expect(screen.getByTestId('site-brand').querySelector('img')?.getAttribute('src')).toBe('/api/setting/logo?v=1'),
    );
    expect(screen.queryByTestId('home-logo-prompt')).toBeNull();
  });
});
