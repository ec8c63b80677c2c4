import { STORAGE_KEYS } from './storage-keys';
import { readStorage, writeStorage } from './storage';

/**
 * Turns what the user typed into a host prefix: '' (same origin) or an http(s) origin with an
 * optional path, without a trailing slash. Returns null when it is not such an address.
 */
export function normalizeHost(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === '') return '';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.search || url.hash || url.username || url.password) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The configured request host ('' means the page's own origin). */
export function getApiHost(): string {
  return normalizeHost(readStorage(STORAGE_KEYS.apiHost) ?? '') ?? '';
}

export function setApiHost(host: string): void {
  writeStorage(STORAGE_KEYS.apiHost, host === '' ? null : host);
}
