import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsSaveBody } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { readAllSettings, writeSettings } from './settings.repository.ts';

/** Settings are read on every authenticated call (idle minutes); a short cache keeps that to one query per second. */
const CACHE_MS = 1000;

export class SettingsService {
  private cache: { at: number; value: Settings } | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<Settings> {
    const now = this.clock();
    if (this.cache && now - this.cache.at < CACHE_MS && now >= this.cache.at) return this.cache.value;
    const stored = await readAllSettings(this.db.kysely);
    // A stored value that no longer fits the schema (an old version's) falls back to its default.
    const merged = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      const parsed = SettingsSchema.shape[key].safeParse(stored[key]);
      if (parsed.success) (merged as Record<string, unknown>)[key] = parsed.data;
    }
    this.cache = { at: now, value: merged };
    return merged;
  }

  async save(values: SettingsSaveBody | Pick<Settings, 'logo'>): Promise<Settings> {
    await this.db.kysely.transaction().execute((trx) => writeSettings(trx, values, this.clock()));
    this.cache = null;
    return this.get();
  }

  /** Raw JSON values kept beside the settings (e.g. the role lists). */
  async readRaw(key: string): Promise<unknown> {
    return (await readAllSettings(this.db.kysely))[key];
  }

  async writeRaw(key: string, value: unknown) {
    await writeSettings(this.db.kysely, { [key]: value }, this.clock());
  }
}
