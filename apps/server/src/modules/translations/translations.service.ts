import { ResultCode, type LangEntry, type LangQuery, type TranslationItem, type TranslationUploadResult } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { parseTranslationFile, TranslationFileError } from './translation-file.ts';
import * as repo from './translations.repository.ts';

const orNull = (text: string | null) => (text === '' ? null : text);

export class TranslationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(query: LangQuery): Promise<{ rows: LangEntry[]; total: number }> {
    const [total, rows] = await Promise.all([
      repo.countOverrides(this.db.kysely, query.language),
      repo.listOverrides(this.db.kysely, query.language, (query.page - 1) * query.limit, query.limit),
    ]);
    return { rows, total };
  }

  /** Writes the given rows in one transaction; null or '' removes that language's override. */
  async save(items: TranslationItem[]): Promise<number> {
    const now = this.clock();
    await this.db.kysely.transaction().execute(async (trx) => {
      for (const item of items) await repo.upsertOverride(trx, item.key, orNull(item.zh), orNull(item.en), now);
    });
    return items.length;
  }

  /** Compares an uploaded file with the current overrides; applies it (empty cells keep what is there) unless dryRun. */
  async upload(data: Buffer, filename: string, dryRun: boolean): Promise<TranslationUploadResult> {
    let rows;
    try {
      rows = parseTranslationFile(data, filename);
    } catch (error) {
      if (error instanceof TranslationFileError)
        throw new AppError(ResultCode.BAD_PARAM, 'badFile', { detail: error.message }, 'file');
      throw error;
    }
    const current = new Map((await repo.allOverrides(this.db.kysely)).map((r) => [r.key, r]));
    const result: TranslationUploadResult = { applied: !dryRun, added: [], changed: [], unchanged: 0 };
    const writes: TranslationItem[] = [];
    for (const row of rows) {
      const old = current.get(row.key);
      const next = { key: row.key, zh: row.zh ?? old?.zh ?? null, en: row.en ?? old?.en ?? null };
      if (!old) result.added.push(next);
      else if (old.zh === next.zh && old.en === next.en) {
        result.unchanged++;
        continue;
      } else result.changed.push({ ...next, old_zh: old.zh, old_en: old.en });
      writes.push(next);
    }
    if (!dryRun && writes.length > 0) await this.save(writes);
    return result;
  }
}
