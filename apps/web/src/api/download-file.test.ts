import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as EP from '@ipp/contracts/endpoints';
import { setLanguage } from '@/i18n';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { jsonResponse } from '@/test/render';
import { ApiError } from './api-error';
import { downloadFile, filenameOf, type DownloadProgress } from './download-file';
import { setApiNotifier, type ApiNotifier } from './notifier';

const encoder = new TextEncoder();

/** A response whose body arrives chunk by chunk, when the test says. */
function streamedResponse(headers: Record<string, string>) {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: new Response(body, { headers }),
    push: (text: string) => controller?.enqueue(encoder.encode(text)),
    close: () => controller?.close(),
  };
}

let notifier: { error: ReturnType<typeof vi.fn<ApiNotifier['error']>>; signedOut: ReturnType<typeof vi.fn<() => void>> };
let removeNotifier: () => void;

beforeEach(async () => {
  await setLanguage('en');
  notifier = { error: vi.fn(), signedOut: vi.fn() };
  removeNotifier = setApiNotifier(notifier);
});

afterEach(async () => {
  removeNotifier();
  await setLanguage('zh');
});

describe('downloadFile', () => {
  it('sends the token, language and host like every call, and reports progress as the body arrives', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'tok-1');
    localStorage.setItem(STORAGE_KEYS.apiHost, 'http://10.0.0.2:8080');
    const csv = 'time,count\n00:00,4\n01:00,2\n';
    const stream = streamedResponse({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Length': String(csv.length),
      'Content-Disposition': 'attachment; filename="21005-24h.csv"',
    });
    const fetchMock = vi.fn<typeof fetch>(async () => stream.response);
    vi.stubGlobal('fetch', fetchMock);
    const progress: DownloadProgress[] = [];

    const done = downloadFile(EP.roiExportSiteData, {
      query: { dev_id: '21005', period: '24h' },
      onProgress: (p) => progress.push(p),
    });
    await vi.waitFor(() => expect(progress).toEqual([{ loaded: 0, total: csv.length }]));
    stream.push(csv.slice(0, 11));
    await vi.waitFor(() => expect(progress.at(-1)).toEqual({ loaded: 11, total: csv.length }));
    stream.push(csv.slice(11));
    stream.close();
    const file = await done;

    expect(progress.at(-1)).toEqual({ loaded: csv.length, total: csv.length });
    expect(await file.blob.text()).toBe(csv);
    expect(file.filename).toBe('21005-24h.csv');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('http://10.0.0.2:8080/api/roi/export-site-data?dev_id=21005&period=24h');
    const headers = new Headers(init?.headers);
    expect(headers.get('X-Token')).toBe('tok-1');
    expect(headers.get('x-lang')).toBe('en');
  });

  it('reports a JSON failure envelope like any call, and rejects with its code', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ code: 1002, data: 'The station does not exist', msg: 'The station does not exist' }, 400)),
    );
    const error = await downloadFile(EP.roiExportSiteData).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(1002);
    expect(notifier.error).toHaveBeenCalledWith('The station does not exist');
  });

  it('rejects as aborted, without a toast, when the caller cancels mid-body', async () => {
    const stream = streamedResponse({ 'Content-Type': 'text/csv' });
    vi.stubGlobal('fetch', async () => stream.response);
    const controller = new AbortController();
    const progress: DownloadProgress[] = [];
    const done = downloadFile(EP.roiExportSiteData, { signal: controller.signal, onProgress: (p) => progress.push(p) });
    stream.push('a,b\n');
    await vi.waitFor(() => expect(progress.at(-1)?.loaded).toBe(4));
    expect(progress.at(-1)?.total).toBeNull();
    controller.abort();
    const error = (await done.catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('aborted');
    expect(notifier.error).not.toHaveBeenCalled();
  });
});

describe('filenameOf', () => {
  it('reads the RFC 6266 forms, the UTF-8 one first', () => {
    expect(filenameOf('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(filenameOf('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(filenameOf(`attachment; filename="x.csv"; filename*=UTF-8''%E9%BB%84%E6%B5%B7.csv`)).toBe('黄海.csv');
    expect(filenameOf('inline')).toBeNull();
    expect(filenameOf(null)).toBeNull();
  });
});
