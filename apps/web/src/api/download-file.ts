import { ApiError } from './api-error';
import type { Endpoint } from '@ipp/contracts/endpoint-paths';
import { apiUrl, buildHeaders, failAnswer, failTransport, TRANSFER_TIMEOUT_MS, type RequestOptions } from './client';

export interface DownloadProgress {
  loaded: number;
  /** From Content-Length; null when the server did not say. */
  total: number | null;
}

export interface DownloadedFile {
  blob: Blob;
  /** The name the server gave (Content-Disposition), null when it gave none. */
  filename: string | null;
}

export interface DownloadOptions {
  query?: RequestOptions['query'];
  /** Sent as JSON when the endpoint is a POST (exports of a selection). */
  body?: unknown;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  silent?: boolean;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* wins over filename). */
export function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
  const name = plain?.[2] ?? plain?.[1]?.trim();
  return name ? name : null;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}

async function readPayload(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text()) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A file the server streams instead of an envelope (CSV and zip exports; GET, or POST with a JSON body), with the same address and headers as
 * every call. Progress follows the body as it arrives; a JSON answer is the failure envelope and is reported as
 * any call's failure (toast, 1010 sign-out), then rejected with ApiError.
 */
export async function downloadFile(endpoint: Endpoint, options: DownloadOptions = {}): Promise<DownloadedFile> {
  const silent = options.silent ?? false;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? TRANSFER_TIMEOUT_MS);
  const forwardAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  else options.signal?.addEventListener('abort', forwardAbort, { once: true });

  const failed = (error: unknown): never => {
    if (options.signal?.aborted && !timedOut) {
      throw new ApiError({ kind: 'aborted', message: error instanceof Error ? error.message : 'Aborted' });
    }
    failTransport(timedOut ? 'timeout' : 'transport', undefined, null, silent);
  };

  try {
    let response: Response;
    try {
      const post = endpoint.method === 'POST';
      const headers = buildHeaders(post ? { body: options.body ?? {} } : {});
      response = await fetch(apiUrl(endpoint, options.query), {
        method: post ? 'POST' : 'GET',
        headers,
        body: post ? JSON.stringify(options.body ?? {}) : undefined,
        signal: controller.signal,
      });
    } catch (error) {
      return failed(error);
    }
    if (!response.ok || isJson(response)) failAnswer(await readPayload(response), response.status, silent);

    const length = Number(response.headers.get('content-length'));
    const total = Number.isFinite(length) && length > 0 ? length : null;
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    const filename = filenameOf(response.headers.get('content-disposition'));
    options.onProgress?.({ loaded: 0, total });

    const reader = response.body?.getReader();
    if (!reader) {
      const blob = await response.blob().catch(failed);
      options.onProgress?.({ loaded: blob.size, total });
      return { blob, filename };
    }
    // Not every fetch ends the body when its signal aborts; cancelling the reader always does.
    const cancel = () => void reader.cancel().catch(() => undefined);
    controller.signal.addEventListener('abort', cancel, { once: true });
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read().catch(failed);
      if (controller.signal.aborted) failed(controller.signal.reason);
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      options.onProgress?.({ loaded, total });
    }
    controller.signal.removeEventListener('abort', cancel);
    return { blob: new Blob(chunks, { type }), filename };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}
