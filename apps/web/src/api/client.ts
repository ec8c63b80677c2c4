import type { ApiBody, ApiData, Envelope } from '@ipp/contracts';
import { urlPathOf, type Endpoint } from '@ipp/contracts/endpoint-paths';
import * as EP from '@ipp/contracts/endpoints';
import { getLanguage, i18n } from '@/i18n';
import { getApiHost } from '@/lib/api-host';
import { HEADER_LANG, HEADER_TOKEN, ResultCode, TOKEN_MESSAGES } from '@/lib/contract-constants';
import { clearSession, getToken } from '@/lib/session';
import { ApiError } from './api-error';
import { getApiNotifier } from './notifier';

/** Spec §7/§9 request timeouts. */
export const REQUEST_TIMEOUT_MS = 50_000;
export const TRANSFER_TIMEOUT_MS = 600_000;

// These screens show the failure themselves (login form inline, image viewer silently) — spec §8.
const SILENT: readonly Endpoint[] = [EP.wyrbacLoginLogin, EP.wyrbacLoginLogout, EP.roiGetAdjacentRoi];

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** JSON-encoded unless it is FormData (uploads). */
  body?: unknown;
  /** Uploads and downloads: 600 s instead of 50 s. */
  transfer?: boolean;
  /** Overrides both defaults. */
  timeoutMs?: number;
  /** No toast on failure; the caller shows the error. */
  silent?: boolean;
  /** Token to send instead of the stored one (a deep link, before it is stored). */
  token?: string;
  signal?: AbortSignal;
}

/** `${host}/api`, host being the configured request domain ('' = same origin). */
export function apiBase(): string {
  return `${getApiHost()}/api`;
}

/** The URL of a call: the host, then /api unless the endpoint is one of the few outside it (spec §7), then its path. */
export function apiUrl(endpoint: Endpoint, query?: RequestOptions['query']): string {
  const url = `${getApiHost()}${urlPathOf(endpoint)}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) if (item !== undefined && item !== null) params.append(key, String(item));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/** Spec §7: an image URL containing ':' is absolute (or data:) and left alone; others go through the API. */
export function imageUrl(url: string): string {
  if (url === '' || url.includes(':')) return url;
  return `${apiBase()}/${url.replace(/^\/+/, '')}`;
}

const isSilent = (endpoint: Endpoint) => SILENT.some((e) => e.path === endpoint.path && e.method === endpoint.method);

function isEnvelope(payload: unknown): payload is Envelope<unknown> {
  return typeof payload === 'object' && payload !== null && typeof (payload as { code?: unknown }).code === 'number';
}

function msgOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const msg = (payload as { msg?: unknown }).msg;
  return typeof msg === 'string' && msg !== '' ? msg : null;
}

function modelString(model: unknown, key: 'field' | 'requestId'): string | null {
  if (typeof model !== 'object' || model === null) return null;
  const value = (model as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** X-Token and x-lang as every call sends them (downloads too, which read the answer themselves). */
export function buildHeaders(options: Pick<RequestOptions, 'body' | 'token'> = {}): Headers {
  const headers = new Headers();
  const token = options.token ?? getToken();
  if (token) headers.set(HEADER_TOKEN, token);
  headers.set(HEADER_LANG, getLanguage());
  if (options.body !== undefined && !(options.body instanceof FormData)) {
    headers.set('Content-Type', 'application/json');
  }
  return headers;
}

function failEnvelope(envelope: Envelope<unknown>, status: number, silent: boolean): never {
  const notifier = getApiNotifier();
  const serverMessage = typeof envelope.data === 'string' && envelope.data !== '' ? envelope.data : null;
  let message = serverMessage ?? i18n.t('api.interfaceError');
  if (envelope.code === ResultCode.TOKEN) {
    if (serverMessage === TOKEN_MESSAGES.displaced) message = i18n.t('api.displaced');
    clearSession();
    notifier.signedOut();
    // Said even on a silent call (start-up calls are silent): the user must learn why the session ended.
    // One toast however many requests fail with the same expired token.
    notifier.error(message, 'session-ended');
  } else if (!silent) {
    notifier.error(message);
  }
  throw new ApiError({
    kind: 'server',
    message,
    code: envelope.code,
    field: modelString(envelope.model, 'field'),
    requestId: modelString(envelope.model, 'requestId'),
    status,
  });
}

export function failTransport(kind: 'transport' | 'timeout', payload: unknown, status: number | null, silent: boolean): never {
  const message = msgOf(payload) ?? i18n.t('api.badNetwork');
  if (!silent) getApiNotifier().error(message, 'network');
  throw new ApiError({ kind, message, status });
}

/** Reports an answer that is not the one expected (a download answered with JSON): its failure envelope, else a transport failure. */
export function failAnswer(payload: unknown, status: number | null, silent: boolean): never {
  if (isEnvelope(payload) && payload.code !== ResultCode.OK) failEnvelope(payload, status ?? 0, silent);
  failTransport('transport', payload, status, silent);
}

/** Sends one call and resolves with the whole success envelope (for callers that need count/index). */
export async function requestEnvelope<E extends Endpoint>(
  endpoint: E,
  options: RequestOptions = {},
): Promise<Envelope<ApiData<E>>> {
  const silent = options.silent ?? isSilent(endpoint);
  const timeoutMs = options.timeoutMs ?? (options.transfer ? TRANSFER_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  else options.signal?.addEventListener('abort', forwardAbort, { once: true });

  let payload: unknown;
  let status: number | null = null;
  try {
    const body = options.body;
    const response = await fetch(apiUrl(endpoint, options.query), {
      method: endpoint.method,
      headers: buildHeaders(options),
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: controller.signal,
    });
    status = response.status;
    payload = await readJson(response);
  } catch (error) {
    if (options.signal?.aborted && !timedOut) {
      throw new ApiError({ kind: 'aborted', message: error instanceof Error ? error.message : 'Aborted' });
    }
    failTransport(timedOut ? 'timeout' : 'transport', undefined, null, silent);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forwardAbort);
  }

  if (!isEnvelope(payload)) failTransport('transport', payload, status, silent);
  if (payload.code !== ResultCode.OK) failEnvelope(payload, status ?? 0, silent);
  return payload as Envelope<ApiData<E>>;
}

/** Sends one call and resolves with the envelope's data; rejects with ApiError. */
export async function request<E extends Endpoint>(endpoint: E, options: RequestOptions = {}): Promise<ApiData<E>> {
  return (await requestEnvelope(endpoint, options)).data;
}

export interface SafeParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** Checks data against its contract schema; a mismatch is reported like any interface error. */
export function parseData<T>(schema: SafeParser<T>, data: unknown, options: { silent?: boolean } = {}): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const message = i18n.t('api.interfaceError');
  if (!options.silent) getApiNotifier().error(message);
  throw new ApiError({ kind: 'server', message, code: ResultCode.INTERNAL });
}

/**
 * The calls, by their contract entry (EP from @ipp/contracts/endpoints): the method, path and the types of the body
 * and the answer's data come from the contract, written once for the server and the console.
 */
export const api = {
  get<E extends Endpoint & { method: 'GET' }>(endpoint: E, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiData<E>> {
    return request(endpoint, options);
  },
  post<E extends Endpoint & { method: 'POST' }>(
    endpoint: E,
    body?: ApiBody<E> | FormData,
    options: Omit<RequestOptions, 'body'> = {},
  ): Promise<ApiData<E>> {
    return request(endpoint, { ...options, body: body ?? {} });
  },
};
