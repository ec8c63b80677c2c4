import type { Lang, LangEntry } from '@ipp/contracts';
import { queryOptions } from '@tanstack/react-query';
import { requestEnvelope } from './client';
import { loadShellSchemas, parseShellData } from './parse-shell-data';
import * as EP from '@ipp/contracts/endpoints';

export const langOverridesQueryKey = ['i18n-overrides'] as const;

/** Spec §9: language strings come 500 to a page. */
export const LANG_PAGE_SIZE = 500;
// A runaway count must not loop forever; 100 pages is 50,000 strings, far above the UI's few hundred.
const MAX_PAGES = 100;

/**
 * Every server override of one language (public, GET /get-lang/lang, all pages). Silent: the console
 * works with its bundled strings when this fails (the translation page shows its own error).
 */
export async function getLangOverrides(language: Lang, options: { signal?: AbortSignal } = {}): Promise<LangEntry[]> {
  void loadShellSchemas();
  const entries: LangEntry[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const envelope = await requestEnvelope(EP.getLangLang, {
      query: { language, limit: LANG_PAGE_SIZE, page },
      signal: options.signal,
      silent: true,
    });
    const items = await parseShellData((s) => s.LangEntryListSchema, envelope.data, { silent: true });
    entries.push(...items);
    if (items.length < LANG_PAGE_SIZE || entries.length >= envelope.count) break;
  }
  return entries;
}

export function langOverridesQueryOptions(language: Lang) {
  return queryOptions({
    queryKey: [...langOverridesQueryKey, language],
    queryFn: ({ signal }) => getLangOverrides(language, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    // Every part of the console has a fallback; one failure is not retried by each component that mounts.
    retryOnMount: false,
  });
}
