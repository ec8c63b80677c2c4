import { TRANSLATION_KEY_PATTERN, TRANSLATION_TEXT_MAX } from '@ipp/contracts';
import { CsvParseError, parseCsv as parseTable } from '@ipp/contracts/csv';

export interface FileRow {
  key: string;
  zh: string | null;
  en: string | null;
}

export class TranslationFileError extends Error {}

/**
 * Reads an uploaded translation table. Accepted: JSON {"key": {"zh", "en"}} or {"zh": {key: text}, "en": {...}},
 * and CSV with the header key,zh,en. Empty cells mean "no change"; every problem names its line or key.
 */
export function parseTranslationFile(data: Buffer, filename: string): FileRow[] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new TranslationFileError('the file is empty');
  const looksJson = /\.json$/i.test(filename) || /^\s*[[{]/.test(text);
  const rows = looksJson ? fromJson(text) : fromCsv(text);
  const seen = new Set<string>();
  for (const row of rows) {
    // PostgreSQL cannot store NUL in text (it answered 500, issue 20), and no translation has a use for it.
    for (const [where, text] of [
      ['key', row.key],
      ['zh', row.zh],
      ['en', row.en],
    ] as const) {
      if (text?.includes('\u0000'))
        throw new TranslationFileError(
          `${where === 'key' ? 'a key' : `"${row.key.replaceAll('\u0000', '').slice(0, 60)}" (${where})`} holds the NUL character`,
        );
    }
    if (!TRANSLATION_KEY_PATTERN.test(row.key)) throw new TranslationFileError(`invalid key "${row.key.slice(0, 60)}"`);
    if (seen.has(row.key)) throw new TranslationFileError(`key "${row.key}" appears twice`);
    seen.add(row.key);
    for (const lang of ['zh', 'en'] as const) {
      if ((row[lang]?.length ?? 0) > TRANSLATION_TEXT_MAX)
        throw new TranslationFileError(`"${row.key}" (${lang}) is longer than ${TRANSLATION_TEXT_MAX} characters`);
    }
  }
  if (rows.length === 0) throw new TranslationFileError('the file has no translations');
  if (rows.length > 5000) throw new TranslationFileError('more than 5000 keys');
  return rows;
}

const cell = (value: unknown, where: string): string | null => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new TranslationFileError(`${where} is not text`);
  return value;
};

function fromJson(text: string): FileRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new TranslationFileError(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new TranslationFileError('JSON must be an object');
  const object = parsed as Record<string, unknown>;
  const byLanguage = Object.keys(object).every((k) => k === 'zh' || k === 'en');
  if (byLanguage) {
    const rows = new Map<string, FileRow>();
    for (const lang of ['zh', 'en'] as const) {
      const table = object[lang] ?? {};
      if (typeof table !== 'object' || table === null || Array.isArray(table))
        throw new TranslationFileError(`"${lang}" must be an object of key: text`);
      for (const [key, value] of Object.entries(table)) {
        const row = rows.get(key) ?? { key, zh: null, en: null };
        row[lang] = cell(value, `"${key}" (${lang})`);
        rows.set(key, row);
      }
    }
    return [...rows.values()];
  }
  return Object.entries(object).map(([key, value]) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new TranslationFileError(`"${key}" must be {"zh": …, "en": …}`);
    const v = value as Record<string, unknown>;
    return { key, zh: cell(v.zh, `"${key}" (zh)`), en: cell(v.en, `"${key}" (en)`) };
  });
}

/** RFC 4180 CSV (the shared reader): quoted fields may hold commas, quotes ("") and line breaks; empty lines are skipped. */
export function parseTranslationCsv(text: string): string[][] {
  try {
    return parseTable(text).filter((r) => !(r.length === 1 && r[0] === ''));
  } catch (error) {
    if (error instanceof CsvParseError) throw new TranslationFileError(error.message);
    throw error;
  }
}

function fromCsv(text: string): FileRow[] {
  const [header, ...records] = parseTranslationCsv(text);
  const columns = header?.map((h) => h.trim().toLowerCase()) ?? [];
  const [k, z, e] = ['key', 'zh', 'en'].map((name) => columns.indexOf(name));
  if (k === undefined || k < 0 || z === undefined || z < 0 || e === undefined || e < 0) {
    throw new TranslationFileError('the CSV header must be key,zh,en');
  }
  return records.map((record, i) => {
    if (record.length !== columns.length)
      throw new TranslationFileError(`line ${i + 2} has ${record.length} fields, expected ${columns.length}`);
    return { key: (record[k] ?? '').trim(), zh: cell(record[z], `line ${i + 2}`), en: cell(record[e], `line ${i + 2}`) };
  });
}
