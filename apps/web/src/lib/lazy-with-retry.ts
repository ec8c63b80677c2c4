import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Spec §9: a page chunk that has not arrived after 120 s counts as failed. */
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

export interface RetryOptions {
  timeoutMs?: number;
  retries?: number;
}

/** Runs `load` racing a timeout, and again up to `retries` more times; rejects with the last error. */
export async function loadWithRetry<T>(
  load: () => Promise<T>,
  { timeoutMs = LAZY_TIMEOUT_MS, retries = LAZY_RETRIES }: RetryOptions = {},
): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    try {
      return await withTimeout(load(), timeoutMs);
    } catch (error) {
      lastError = error;
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
