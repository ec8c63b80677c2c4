import { ResultCode, TOKEN_MESSAGES } from '@ipp/contracts';
import * as EP from '@ipp/contracts/endpoints';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { ApiError } from './api-error';
import { api, imageUrl, REQUEST_TIMEOUT_MS, requestEnvelope, TRANSFER_TIMEOUT_MS } from './client';
import { setApiNotifier, type ApiNotifier } from './notifier';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function failure(code: number, message: string, status: number, field?: string) {
  return jsonResponse(
    { code, data: message, msg: message, model: field ? { field, requestId: 'req-1' } : null, count: 0, index: null },
    status,
  );
}

function success(data: unknown, count = 0) {
  return jsonResponse({ code: ResultCode.OK, data, model: null, count, index: null });
}

/** Never answers; rejects like fetch does when its signal aborts. */
function hangingFetch(_url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
let notifier: { error: ReturnType<typeof vi.fn<ApiNotifier['error']>>; signedOut: ReturnType<typeof vi.fn<() => void>> };
let removeNotifier: () => void;

function signIn() {
  localStorage.setItem(STORAGE_KEYS.token, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.role, 'user');
  localStorage.setItem(STORAGE_KEYS.demo, '1');
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(async () => {
  await setLanguage('zh');
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  notifier = { error: vi.fn(), signedOut: vi.fn() };
  removeNotifier = setApiNotifier(notifier);
});

afterEach(async () => {
  removeNotifier();
  await i18n.changeLanguage('zh');
});

describe('api client: success', () => {
  it('resolves with the envelope data', async () => {
    fetchMock.mockImplementation(async () => success({ ok: true }));
    await expect(api.get(EP.wyrbacLoginLogout)).resolves.toEqual({ ok: true });
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('gives the whole envelope to callers that need count', async () => {
    fetchMock.mockImplementation(async () => success([1, 2], 42));
    const envelope = await requestEnvelope(EP.userIndex, { query: { page: 1, limit: 20, q: undefined } });
    expect(envelope.count).toBe(42);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/user/index?page=1&limit=20');
  });
});

describe('api client: headers and address', () => {
  it('sends X-Token when a token is stored, and x-lang always', async () => {
    fetchMock.mockImplementation(async () => success(null));
    await api.get(EP.groupIndex);
    let headers = new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
    expect(headers.has('X-Token')).toBe(false);
    expect(headers.get('x-lang')).toBe('zh');

    signIn();
    await setLanguage('en');
    await api.get(EP.groupIndex);
    headers = new Headers(fetchMock.mock.calls[1]?.[1]?.headers);
    expect(headers.get('X-Token')).toBe('tok-1');
    expect(headers.get('x-lang')).toBe('en');
  });

  it('posts JSON bodies', async () => {
    fetchMock.mockImplementation(async () => success(null));
    await api.post(EP.groupSave, { name: 'North' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"North"}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('prefixes the configured request host', async () => {
    localStorage.setItem(STORAGE_KEYS.apiHost, 'http://10.0.0.2:8080/');
    fetchMock.mockImplementation(async () => success(null));
    await api.get(EP.groupIndex);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('http://10.0.0.2:8080/api/group/index');
  });

  it('uses the same origin when no host is configured', async () => {
    fetchMock.mockImplementation(async () => success(null));
    await api.get(EP.groupIndex);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/group/index');
  });
});

describe('api client: calls outside the api prefix', () => {
  it('sends root calls to the host itself, with the same headers and envelope', async () => {
    signIn();
    fetchMock.mockImplementation(async () => success({ url: 'roi/file/abc' }));
    await expect(api.post(EP.enhance, { roi_id: 5 })).resolves.toEqual({ url: 'roi/file/abc' });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/enhance');
    const headers = new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
    expect(headers.get('X-Token')).toBe('tok-1');
    expect(headers.get('Content-Type')).toBe('application/json');

    localStorage.setItem(STORAGE_KEYS.apiHost, 'http://10.0.0.2:8080/console/');
    await api.post(EP.foldersQuery, { roi_id: 5 }, { query: { k: 3 } });
    expect(String(fetchMock.mock.calls[1]?.[0])).toBe('http://10.0.0.2:8080/console/folders/query?k=3');
  });

  it('reports a failure of a root call like any other', async () => {
    fetchMock.mockImplementation(async () => failure(ResultCode.NOT_FOUND, 'No image resource', 404));
    const error = await rejection(api.post(EP.foldersQuery, { roi_id: 5 }));
    expect(error).toMatchObject({ kind: 'server', code: ResultCode.NOT_FOUND, status: 404 });
    expect(notifier.error).toHaveBeenCalledWith('No image resource');
  });
});

describe('imageUrl', () => {
  it('leaves URLs containing ":" alone', () => {
    expect(imageUrl('http://cdn.example/roi/1.png')).toBe('http://cdn.example/roi/1.png');
    expect(imageUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('puts the api prefix in front of other URLs', () => {
    expect(imageUrl('uploads/roi/1.png')).toBe('/api/uploads/roi/1.png');
    expect(imageUrl('/uploads/roi/1.png')).toBe('/api/uploads/roi/1.png');
  });

  it('honours the request host', () => {
    localStorage.setItem(STORAGE_KEYS.apiHost, 'https://ipp.example.org');
    expect(imageUrl('uploads/a.png')).toBe('https://ipp.example.org/api/uploads/a.png');
  });
});

describe('api client: error catalogue', () => {
  it('on 1010 signs out locally and goes to /login, showing the server message', async () => {
    signIn();
    fetchMock.mockImplementation(async () => failure(ResultCode.TOKEN, TOKEN_MESSAGES.invalid, 401));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error.code).toBe(1010);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.role)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.demo)).toBeNull();
    expect(notifier.signedOut).toHaveBeenCalledOnce();
    expect(notifier.error).toHaveBeenCalledWith(TOKEN_MESSAGES.invalid, 'session-ended');
  });

  it('shows "Auth Token Failed." as the localized signed-in-elsewhere message', async () => {
    signIn();
    fetchMock.mockImplementation(async () => failure(ResultCode.TOKEN, TOKEN_MESSAGES.displaced, 401));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error.message).toBe('该账号异地登录，请重新登录');
    expect(notifier.error).toHaveBeenCalledWith('该账号异地登录，请重新登录', 'session-ended');

    await setLanguage('en');
    signIn();
    await rejection(api.get(EP.groupIndex));
    expect(notifier.error).toHaveBeenLastCalledWith('This account signed in elsewhere. Please sign in again.', 'session-ended');
  });

  it('says why the session ended even when the 1010 answers a silent call', async () => {
    signIn();
    fetchMock.mockImplementation(async () => failure(ResultCode.TOKEN, TOKEN_MESSAGES.displaced, 401));
    await rejection(api.get(EP.settingGetRole, { silent: true }));
    expect(notifier.signedOut).toHaveBeenCalledOnce();
    expect(notifier.error).toHaveBeenCalledWith('该账号异地登录，请重新登录', 'session-ended');
  });

  it('toasts the data string of any other failure and rejects with code and field', async () => {
    fetchMock.mockImplementation(async () => failure(ResultCode.BAD_PARAM, 'Bad parameter: limit', 400, 'limit'));
    const error = await rejection(api.get(EP.userIndex));
    expect(notifier.error).toHaveBeenCalledWith('Bad parameter: limit');
    expect(error).toMatchObject({ kind: 'server', code: 1002, field: 'limit', status: 400, requestId: 'req-1' });
    expect(notifier.signedOut).not.toHaveBeenCalled();
  });

  it('reads the envelope whatever the HTTP status, even a failure sent with 200', async () => {
    fetchMock.mockImplementation(async () => failure(ResultCode.FAILED, 'Operation fail', 200));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error.code).toBe(1001);
    expect(notifier.error).toHaveBeenCalledWith('Operation fail');
  });

  it('falls back to "接口错误" (en "Interface Error") when the data string is empty', async () => {
    fetchMock.mockImplementation(async () => failure(ResultCode.INTERNAL, '', 500));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error.message).toBe('接口错误');
    expect(notifier.error).toHaveBeenCalledWith('接口错误');

    await setLanguage('en');
    await rejection(api.get(EP.groupIndex));
    expect(notifier.error).toHaveBeenLastCalledWith('Interface Error');
  });

  it('shows no toast for the login URL; the form shows the error', async () => {
    fetchMock.mockImplementation(async () => failure(ResultCode.FAILED, 'Wrong account or password', 422));
    const error = await rejection(api.post(EP.wyrbacLoginLogin, { username: 'a', password: 'bbbbbb' }));
    expect(error.message).toBe('Wrong account or password');
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('shows no toast for adjacent-image lookups', async () => {
    fetchMock.mockImplementation(async () => failure(ResultCode.NOT_FOUND, 'No image resource', 404));
    await rejection(api.get(EP.roiGetAdjacentRoi, { query: { id: 5 } }));
    expect(notifier.error).not.toHaveBeenCalled();
  });
});

describe('api client: transport failures', () => {
  it('toasts the response msg when the body has one but no envelope', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ msg: 'Gateway busy' }, 502));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error).toMatchObject({ kind: 'transport', code: null, message: 'Gateway busy', status: 502 });
    expect(notifier.error).toHaveBeenCalledWith('Gateway busy', 'network');
  });

  it('toasts "网络异常，请重试！" (en "Bad network,please retry!") for a network error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error.kind).toBe('transport');
    expect(notifier.error).toHaveBeenCalledWith('网络异常，请重试！', 'network');

    await setLanguage('en');
    await rejection(api.get(EP.groupIndex));
    expect(notifier.error).toHaveBeenLastCalledWith('Bad network,please retry!', 'network');
  });

  it('treats a non-JSON answer as a transport failure', async () => {
    fetchMock.mockImplementation(async () => new Response('<html>502 Bad Gateway</html>', { status: 502 }));
    const error = await rejection(api.get(EP.groupIndex));
    expect(error).toMatchObject({ kind: 'transport', status: 502 });
    expect(notifier.error).toHaveBeenCalledWith('网络异常，请重试！', 'network');
  });

  it('stays quiet when the caller cancels', async () => {
    fetchMock.mockImplementation(hangingFetch);
    const controller = new AbortController();
    const pending = api.get(EP.groupIndex, { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).kind).toBe('aborted');
    expect(notifier.error).not.toHaveBeenCalled();
  });
});

describe('api client: timeouts', () => {
  it('gives up after 50 s by default', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(hangingFetch);
    const pending = rejection(api.get(EP.groupIndex));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(notifier.error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).kind).toBe('timeout');
    expect(notifier.error).toHaveBeenCalledWith('网络异常，请重试！', 'network');
  });

  it('waits 600 s for uploads and downloads', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(hangingFetch);
    let settled = false;
    const pending = rejection(api.post(EP.uploadIndex, new FormData(), { transfer: true })).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(TRANSFER_TIMEOUT_MS - REQUEST_TIMEOUT_MS);
    expect((await pending).kind).toBe('timeout');
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBeInstanceOf(FormData);
    expect(new Headers(init?.headers).has('Content-Type')).toBe(false);
  });

  it('accepts an explicit timeout', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(hangingFetch);
    const pending = rejection(api.get(EP.groupIndex, { timeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).kind).toBe('timeout');
  });
});
