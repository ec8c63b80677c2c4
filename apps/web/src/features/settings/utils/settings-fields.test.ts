import { DEFAULT_SETTINGS, SettingsSaveBodySchema } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { changedSettings, DEVICE_FIELDS, formValuesOf, isValidTileUrl, SESSION_FIELDS, TEAM_FIELDS } from './settings-fields';

describe('changedSettings', () => {
  it('is empty when nothing changed', () => {
    expect(changedSettings(DEFAULT_SETTINGS, formValuesOf(DEFAULT_SETTINGS))).toEqual({});
  });

  it('holds only the changed settings, never the logo, and passes the contract', () => {
    const saved = { ...DEFAULT_SETTINGS, logo: 'setting/logo?v=1' };
    const body = changedSettings(saved, { ...formValuesOf(saved), team_max_users: 5, site_title: '  Sea Lab  ' });
    expect(body).toEqual({ team_max_users: 5, site_title: 'Sea Lab' });
    expect(SettingsSaveBodySchema.safeParse(body).success).toBe(true);
  });
});

describe('number fields', () => {
  it('take their ranges from the contract schema', () => {
    const fields = Object.fromEntries([...TEAM_FIELDS, ...SESSION_FIELDS, ...DEVICE_FIELDS].map((f) => [f.name, [f.min, f.max]]));
    expect(fields).toEqual({
      team_max_admins: [0, 100],
      team_max_users: [0, 10_000],
      idle_minutes: [1, 1440],
      offline_minutes: [1, 1440],
      recycle_retention_days: [1, 3650],
      wall_max: [1, 1000],
    });
  });
});

describe('map tile URL', () => {
  it('is empty or an http(s) template with {z}, {x} and {y}, as the server checks', () => {
    expect(isValidTileUrl('')).toBe(true);
    expect(isValidTileUrl('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(true);
    expect(isValidTileUrl(' http://10.0.0.5/tiles/{z}/{x}/{y}.png ')).toBe(true);
    expect(isValidTileUrl('https://tile.example.org/{z}/{x}.png')).toBe(false);
    expect(isValidTileUrl('ftp://tile.example.org/{z}/{x}/{y}.png')).toBe(false);
    expect(isValidTileUrl('tiles/{z}/{x}/{y}.png')).toBe(false);
  });

  it('is sent trimmed, and only when changed', () => {
    const values = { ...formValuesOf(DEFAULT_SETTINGS), map_tile_url: '  http://10.0.0.5/{z}/{x}/{y}.png ' };
    expect(changedSettings(DEFAULT_SETTINGS, values)).toEqual({ map_tile_url: 'http://10.0.0.5/{z}/{x}/{y}.png' });
    expect(changedSettings(DEFAULT_SETTINGS, { ...values, map_tile_url: '' })).toEqual({ map_tile_url: '' });
  });
});
