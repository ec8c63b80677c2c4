import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Spec §9: a page chunk that has not arrived after 120 s counts as failed (all tries together). */
export const LAZY_TIMEOUT_MS = 120_000;
export const LAZY_RETRIES = 2;

export class LoadTimeoutError extends Error {
  constructor(ms: number) {
    super(`Page did not load within ${ms} ms`);
    this.name = 'LoadTimeoutError';
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LoadTimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The module a loader imports and what it takes from it, read from the loader's source as the build wrote it:
 * `()=>vt(()=>import(`./home-page-X.js`).then(e=>({default:e.HomePage})),deps)`, `() => import("/src/x.ts")`,
 * `()=>import("./zh-X.js").then(e=>e.default)`. Null when the source says anything else (then only the loader itself
 * can load it).
 */
export function importOf(load: () => unknown): { specifier: string; pick?: { name: string; asDefault: boolean } } | null {
  const source = String(load);
  const imports = [...source.matchAll(/\bimport\(\s*(["'`])([^"'`\s]+)\1\s*\)/g)];
  if (imports.length !== 1) return null;
  const match = imports[0]!;
  const specifier = match[2]!;
  const rest = source.slice(match.index + match[0].length);
  if (!/^\s*\.\s*then\b/.test(rest)) return { specifier };
  const then =
    /^\s*\.\s*then\(\s*\(?\s*([\w$]+)\s*\)?\s*=>\s*(?:\(\s*\{\s*default\s*:\s*\1\.([\w$]+)\s*,?\s*\}\s*\)|\1\.([\w$]+))\s*\)/.exec(
      rest,
    );
  if (!then) return null;
  return then[2]
    ? { specifier, pick: { name: then[2], asDefault: true } }
    : { specifier, pick: { name: then[3]!, asDefault: false } };
}

/** A number no other fresh import of this page session has used: each retry is a URL the browser has not seen. */
let freshImports = 0;

/**
 * A fresh download of what `load` imports: the module's URL with a query it never had, so the browser neither joins
 * the still-pending request of the try before (a module being fetched is shared by every import of its URL) nor
 * answers with that try's cached failure. Null when the loader's module cannot be told from its source.
 */
export function freshImport<T>(
  load: () => Promise<T>,
  importModule: (url: string) => Promise<unknown> = (url) => import(/* @vite-ignore */ url),
): (() => Promise<T>) | null {
  const target = importOf(load);
  if (!target) return null;
  return async () => {
    const url = new URL(target.specifier, import.meta.url);
    freshImports += 1;
    url.searchParams.set('retry', String(freshImports));
    const module = (await importModule(url.href)) as Record<string, unknown>;
    if (!target.pick) return module as T;
    const value = module[target.pick.name];
    return (target.pick.asDefault ? { default: value } : value) as T;
  };
}

export interface RetryOptions {
  /** All tries together; each try gets an equal share of what is left. */
  timeoutMs?: number;
  retries?: number;
  /** How a retry imports a module URL (tests replace it). */
  importModule?: (url: string) => Promise<unknown>;
}

/**
 * Runs `load`, and again up to `retries` more times after a failure or a try that takes too long; rejects with the
 * last error once the tries have failed or `timeoutMs` has passed since the first began, whichever comes first. A
 * retry downloads the module afresh (freshImport) instead of waiting on the same stuck request again.
 */
export async function loadWithRetry<T>(
  load: () => Promise<T>,
  { timeoutMs = LAZY_TIMEOUT_MS, retries = LAZY_RETRIES, importModule }: RetryOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const fresh = freshImport(load, importModule) ?? load;
  let lastError: unknown = new LoadTimeoutError(timeoutMs);
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const share = Math.ceil(left / (retries + 1 - attempt));
    try {
      return await withTimeout(attempt === 0 ? load() : fresh(), share);
    } catch (error) {
      lastError = error instanceof LoadTimeoutError ? new LoadTimeoutError(timeoutMs) : error;
    }
  }
  throw lastError;
}

export interface LazyPage<P extends object> {
  /** Current lazy component; replaced by reset() because React.lazy caches a failure forever. */
  readonly Component: LazyExoticComponent<ComponentType<P>>;
  /** After a failed load, makes the next render try again. */
  reset(): void;
}

export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  options?: RetryOptions,
): LazyPage<P> {
  let failed = false;
  const make = () =>
    lazy(() =>
      loadWithRetry(load, options).catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    );
  let Component = make();
  return {
    get Component() {
      return Component;
    },
    reset() {
      if (!failed) return;
      failed = false;
      Component = make();
    },
  };
}
