import type { Lang, LangEntry, TranslationItem } from '@ipp/contracts';
import { csvText } from '@ipp/contracts/csv';

/** One UI string: its bundled texts and the server's overrides (null = none). */
export interface TranslationRow {
  key: string;
  bundled: Record<Lang, string>;
  override: Record<Lang, string | null>;
}

/** Unsaved edits by key; a language absent from a draft is unchanged. */
export type Drafts = ReadonlyMap<string, Partial<Record<Lang, string>>>;

/**
 * Every key of the bundled strings in bundle order, then keys only the server knows (overrides of
 * strings an older build had), each with both languages' bundled text and override.
 */
export function buildRows(
  bundled: Readonly<Record<Lang, Readonly<Record<string, string>>>>,
  overrides: Readonly<Record<Lang, readonly LangEntry[]>>,
): TranslationRow[] {
  const serverText = {
    zh: new Map(overrides.zh.map((entry) => [entry.key, entry.text])),
    en: new Map(overrides.en.map((entry) => [entry.key, entry.text])),
  };
  const bundledKeys = [...new Set([...Object.keys(bundled.zh), ...Object.keys(bundled.en)])];
  const known = new Set(bundledKeys);
  const serverOnly = [...new Set([...serverText.zh.keys(), ...serverText.en.keys()])].filter((key) => !known.has(key)).sort();
  return [...bundledKeys, ...serverOnly].map((key) => ({
    key,
    bundled: { zh: bundled.zh[key] ?? '', en: bundled.en[key] ?? '' },
    override: { zh: serverText.zh.get(key) || null, en: serverText.en.get(key) || null },
  }));
}

/** What a cell shows: the unsaved edit, else the override, else '' (the bundled text is the placeholder). */
export function cellText(row: TranslationRow, drafts: Drafts, lang: Lang): string {
  return drafts.get(row.key)?.[lang] ?? row.override[lang] ?? '';
}

/** The text the console shows for a key: the override (or edit) when there is one, else the bundled text. */
export function effectiveText(row: TranslationRow, drafts: Drafts, lang: Lang): string {
  return cellText(row, drafts, lang) || row.bundled[lang];
}

export function isEdited(row: TranslationRow, drafts: Drafts, lang: Lang): boolean {
  const draft = drafts.get(row.key)?.[lang];
  return draft !== undefined && (draft || null) !== row.override[lang];
}

/** Case-insensitive match on the key or any text of the row. */
export function matchesSearch(row: TranslationRow, drafts: Drafts, needle: string): boolean {
  const wanted = needle.trim().toLowerCase();
  if (!wanted) return true;
  const texts = [row.key, row.bundled.zh, row.bundled.en, cellText(row, drafts, 'zh'), cellText(row, drafts, 'en')];
  return texts.some((text) => text.toLowerCase().includes(wanted));
}

/**
 * The items to save: every edited row with both languages, because an item sets both (null removes an
 * override), so the language not edited is sent as the server has it.
 */
export function pendingItems(rows: readonly TranslationRow[], drafts: Drafts): TranslationItem[] {
  const items: TranslationItem[] = [];
  for (const row of rows) {
    if (!isEdited(row, drafts, 'zh') && !isEdited(row, drafts, 'en')) continue;
    items.push({ key: row.key, zh: cellText(row, drafts, 'zh') || null, en: cellText(row, drafts, 'en') || null });
  }
  return items;
}

/** The table as the upload accepts it: {"key": {"zh": "...", "en": "..."}}, with the texts the console shows. */
export function toJson(rows: readonly TranslationRow[], drafts: Drafts): string {
  const out: Record<string, Record<Lang, string>> = {};
  for (const row of rows) out[row.key] = { zh: effectiveText(row, drafts, 'zh'), en: effectiveText(row, drafts, 'en') };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/**
 * CSV with the header key,zh,en (RFC 4180 quoting; text with spaces at either end is quoted too). Without the formula
 * guard: the file is uploaded back, and an apostrophe would become part of the text.
 */
export function toCsv(rows: readonly TranslationRow[], drafts: Drafts): string {
  const records = rows.map((row) => [row.key, effectiveText(row, drafts, 'zh'), effectiveText(row, drafts, 'en')]);
  return csvText([['key', 'zh', 'en'], ...records], { formulaGuard: false, quoteEdgeSpace: true });
}
