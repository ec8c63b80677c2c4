import { setTimeout as sleep } from 'node:timers/promises';
import {
  EP,
  urlPathOf,
  DEVICE_KEY_HEADER,
  DeviceConfigSchema,
  HEADER_TOKEN,
  RoiAckSchema,
  TelemetryAckSchema,
  type DeviceConfig,
  type RoiAck,
  type TelemetryAck,
  type TelemetrySampleInput,
} from '@ipp/contracts';
import type { z } from 'zod';

const REQUEST_TIMEOUT_MS = 20_000;

/** A failed call: the HTTP status and the envelope's code and message (code 0 when there was no envelope). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** When the server said to retry (its Retry-After header), ms from now. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** Worth sending again: the server faulted or was busy, nothing was acknowledged (docs/device-protocol.md). */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429 || this.status === 408 || this.status === 0;
  }

  /** The server is saturated and said when to come back (429/503 with Retry-After, docs/device-protocol.md). */
  get throttled(): boolean {
    return (this.status === 429 || this.status === 503) && this.retryAfterMs !== undefined;
  }
}

/** A Retry-After header in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before sending again: at least the server's Retry-After, plus up to half of it again at random, so
 * a fleet refused at the same moment does not come back at the same moment.
 */
export function retryDelayMs(error: ApiError, backoffMs: number, random: () => number = Math.random): number {
  if (error.retryAfterMs === undefined) return backoffMs * (0.75 + random() * 0.5);
  return error.retryAfterMs * (1 + random() * 0.5);
}

/** One line for a log: the server's message and code when there was an answer. */
export const describeError = (error: unknown) =>
  error instanceof ApiError && error.code !== 0
    ? `${error.message} (code ${error.code})`
    : error instanceof Error
      ? error.message
      : String(error);

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Told before each wait, e.g. to log. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Runs `call`, retrying network failures and 5xx/429 answers (up to `attempts` tries) with jittered exponential backoff,
 * or after the server's Retry-After when it gave one.
 */
export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 6, baseDelayMs = 500, maxDelayMs = 15_000, signal } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiError && error.retryable) || attempt >= attempts || signal?.aborted) throw error;
      const delay = retryDelayMs(error, Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
      options.onRetry?.(error, attempt, delay);
      await sleep(delay, undefined, { signal });
    }
  }
}

/** One request to the console API; answers the envelope's `data` parsed by `schema`, or throws ApiError. */
export async function callApi<S extends z.ZodType>(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; json?: unknown; form?: FormData; signal?: AbortSignal },
  schema: S,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { 'x-lang': 'en', ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const signal = init.signal
    ? AbortSignal.any([init.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
    : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: init.method ?? (init.json !== undefined || init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new ApiError(0, 0, `${error instanceof Error ? error.message : String(error)}${cause}`);
  }
  let envelope: { code?: unknown; data?: unknown; msg?: unknown };
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    // Not the console's envelope: a proxy in between answered (nginx's 502/503/504 page).
    throw new ApiError(
      response.status,
      0,
      `HTTP ${response.status}: ${text.slice(0, 120) || response.statusText}`,
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  if (envelope.code !== 1000) {
    const msg = typeof envelope.msg === 'string' ? envelope.msg : `HTTP ${response.status}`;
    throw new ApiError(response.status, typeof envelope.code === 'number' ? envelope.code : 0, msg, retryAfterMs);
  }
  const parsed = schema.safeParse(envelope.data);
  if (!parsed.success)
    throw new ApiError(response.status, 0, `unexpected answer from ${new URL(url).pathname}: ${parsed.error.message}`);
  return parsed.data;
}

export const tokenHeaders = (token: string) => ({ [HEADER_TOKEN]: token });

export interface RoiUpload {
  capturedAt: number;
  labelIndex: number;
  confidence?: number;
  sizePx: number;
  png: Buffer;
}

/** The device routes of one instrument over HTTP (header X-Device-Key). */
export class DeviceHttp {
  constructor(
    private readonly server: string,
    private readonly key: string,
    private readonly signal?: AbortSignal,
  ) {}

  private get headers() {
    return { [DEVICE_KEY_HEADER]: this.key };
  }

  telemetry(sample: TelemetrySampleInput): Promise<TelemetryAck> {
    return callApi(
      `${this.server}${urlPathOf(EP.deviceTelemetry)}`,
      { json: sample, headers: this.headers, signal: this.signal },
      TelemetryAckSchema,
    );
  }

  /** The same image sent again is a retry the server recognises, so a lost answer can be resent safely. */
  roi(upload: RoiUpload): Promise<RoiAck> {
    const form = new FormData();
    form.set('captured_at', String(upload.capturedAt));
    form.set('label_index', String(upload.labelIndex));
    if (upload.confidence !== undefined) form.set('confidence', upload.confidence.toFixed(3));
    form.set('size_px', String(upload.sizePx));
    form.set('file', new Blob([new Uint8Array(upload.png)], { type: 'image/png' }), `roi-${upload.capturedAt}.png`);
    return callApi(
      `${this.server}${urlPathOf(EP.deviceRois)}`,
      { form, headers: this.headers, signal: this.signal },
      RoiAckSchema,
    );
  }

  config(): Promise<DeviceConfig> {
    return callApi(
      `${this.server}${urlPathOf(EP.deviceConfig)}`,
      { headers: this.headers, signal: this.signal },
      DeviceConfigSchema,
    );
  }
}
