import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SESSION_MAX_HOURS).toBe(12);
    expect(config.SCRYPT_LOG_N).toBe(17);
  });

  it('reads PORT, DATA_DIR and DATABASE_URL', () => {
    const config = loadConfig({ PORT: '9090', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h/db' });
    expect(config).toMatchObject({ PORT: 9090, DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h/db' });
  });

  it('names every bad variable and why', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_PASSWORD: '123', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/PORT: .*"eighty"/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(message).toMatch(/ADMIN_PASSWORD: must be at least 6 characters/);
    expect(message).toMatch(/LOG_LEVEL/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: must be at most 65535/);
  });
});
