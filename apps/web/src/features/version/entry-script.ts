export const VERSION_CHECK_INTERVAL_MS = 10_000;

const SCRIPT_TAG = /<script\b([^>]*)>/gi;
const MODULE_TYPE = /\btype\s*=\s*["']?module["']?/i;
const SRC_ATTR = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** The src of the first `<script type="module" src=…>` in an HTML page: the hashed entry bundle. */
export function extractEntryScript(html: string): string | null {
  for (const match of html.matchAll(SCRIPT_TAG)) {
    const attrs = match[1] ?? '';
    if (!MODULE_TYPE.test(attrs)) continue;
    const src = SRC_ATTR.exec(attrs);
    if (src) return src[1] ?? src[2] ?? src[3] ?? null;
  }
  return null;
}

export function currentEntryScript(doc: Document = document): string | null {
  return doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** Both known and different; an unreadable page is never taken for a new version. */
export function isNewVersion(current: string | null, latest: string | null): boolean {
  return current !== null && latest !== null && current !== latest;
}

export async function fetchLatestEntryScript(fetchImpl: typeof fetch = fetch): Promise<string | null> {
  const response = await fetchImpl('/', { cache: 'no-store' });
  if (!response.ok) return null;
  return extractEntryScript(await response.text());
}
