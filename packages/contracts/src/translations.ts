import { z } from 'zod';
import { LANGS } from './session.ts';

export const TRANSLATION_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const TRANSLATION_TEXT_MAX = 2000;

/** GET /get-lang/lang?language=zh&limit=500&page=1: the server's overrides of one language. */
export const LangQuerySchema = z.object({
  language: z.enum(LANGS),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(500),
});
export type LangQuery = z.infer<typeof LangQuerySchema>;

export const LangEntrySchema = z.object({ key: z.string(), text: z.string() });
export type LangEntry = z.infer<typeof LangEntrySchema>;

/** One row to write: a text sets the override of that language, null (or '') removes it. */
export const TranslationItemSchema = z.object({
  key: z.string().regex(TRANSLATION_KEY_PATTERN),
  zh: z.string().max(TRANSLATION_TEXT_MAX).nullable(),
  en: z.string().max(TRANSLATION_TEXT_MAX).nullable(),
});
export type TranslationItem = z.infer<typeof TranslationItemSchema>;

export const TranslationSaveBodySchema = z.object({ items: z.array(TranslationItemSchema).min(1).max(5000) });
export type TranslationSaveBody = z.infer<typeof TranslationSaveBodySchema>;

/** Answer of POST /upload/index?action=language (dry_run=1 previews; otherwise applies). */
export const TranslationUploadResultSchema = z.object({
  applied: z.boolean(),
  added: z.array(TranslationItemSchema),
  changed: z.array(TranslationItemSchema.extend({ old_zh: z.string().nullable(), old_en: z.string().nullable() })),
  unchanged: z.number().int(),
});
export type TranslationUploadResult = z.infer<typeof TranslationUploadResultSchema>;
