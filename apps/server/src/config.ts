import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const intFrom = (min: number, max: number) =>
  z.coerce.number().int(`must be a whole number`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

const EnvSchema = z.object({
  PORT: intFrom(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for the embedded SQLite default)')
    .optional(),
  /** Images in an S3-protocol bucket instead of DATA_DIR/blobs: s3://bucket[/prefix][?endpoint=…&region=…]. */
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\/[^/?]+/, 'must be an s3://bucket[/prefix] URL (leave it unset for files under DATA_DIR)')
    .optional(),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, 'must be an mqtt:// or mqtts:// URL')
    .optional(),
  /** Alarm e-mail: smtp[s]://[user:pass@]host[:port]; unset, nobody is e-mailed (the console still notifies). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The sender of alarm e-mails. */
  ALARM_MAIL_FROM: z.string().min(3).max(200).default('IPP Console <ipp-console@localhost>'),
  /**
   * The console's address as its users reach it (https://ipp.example.org, maybe with a path): alarm e-mails link to
   * the alarm there. Unset, they carry no link; a request's Host header is never used instead (anyone can send one).
   */
  PUBLIC_URL: z
    .string()
    .regex(
      /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/,
      'must be an http:// or https:// URL without a query (e.g. https://ipp.example.org)',
    )
    .optional(),
  /**
   * The MQTT shared-subscription group of this deployment: its server processes share the device topics, so each
   * message is handled by one of them. Another deployment on the same broker needs its own group.
   */
  MQTT_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"')
    .default('ipp-console'),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').max(128).optional(),
  WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_MAX_HOURS: intFrom(1, 24 * 30).default(12),
  /** log2 of scrypt's N for new password hashes; 17 is the production value, tests may lower it. */
  SCRYPT_LOG_N: intFrom(10, 20).default(17),
  /**
   * Hours east of UTC at which statistics days start (the day rollups' grain; e.g. 8 for China). Defaults to the
   * server's own offset. Day charts for viewers in this zone read day rollups; other zones read hour rollups.
   */
  STATS_UTC_OFFSET: intFrom(-12, 14).default(() => Math.round(-new Date().getTimezoneOffset() / 60)),
  /** Comma-separated origins allowed to call the API from another host ("*" = any; tokens travel in headers, not cookies). */
  CORS_ORIGINS: z.string().default('*'),
  /** Run recognition jobs (re-identification, training) in this process; off for processes that only answer calls. */
  JOB_WORKER: z.enum(['on', 'off']).default('on'),
  /**
   * Load every team's "more like this" index in the background after start (36 bytes of memory per ROI), so no user's
   * first query waits for it; off loads each team's on its first query.
   */
  SIMILARITY_PRELOAD: z.enum(['on', 'off']).default('on'),
  /**
   * Worker threads that measure images' features at ingest and in re-identification, off the event loop (about 9 ms
   * of JavaScript per image). 0 measures on the event loop. Default: one per core beyond the first, at most 4.
   */
  /**
   * The orphan sweep deletes image files no ROI names once they were last touched this many minutes ago. It must
   * exceed the longest time from an image's write to its row's commit (seconds). 0 sweeps at once: only where nothing
   * ingests during the pass (the crash test waits for the pass after each restart).
   */
  ORPHAN_GRACE_MINUTES: intFrom(0, 10_080).default(60),
  FEATURE_WORKERS: intFrom(0, 16).default(() => Math.max(1, Math.min(4, os.availableParallelism() - 1))),
  /**
   * Server-side deadline of a call, in ms: a handler that has not answered by then gets a 503 envelope (the work itself
   * is not cancelled). Uploads (multipart) and routes marked `deadline: 'long'` get LONG_REQUEST_DEADLINE_MS; a
   * streaming answer (an export) is never cut once its headers are out.
   */
  REQUEST_DEADLINE_MS: intFrom(50, 3_600_000).default(120_000),
  LONG_REQUEST_DEADLINE_MS: intFrom(50, 3_600_000).default(600_000),
  /** A request's headers and body must have arrived within this many ms (slow-body clients get a 408 envelope). */
  REQUEST_BODY_TIMEOUT_MS: intFrom(200, 3_600_000).default(600_000),
  /** On SIGTERM/SIGINT the process exits within this many ms even if a request or the database is stuck (code 1). */
  SHUTDOWN_TIMEOUT_MS: intFrom(100, 600_000).default(10_000),
  /**
   * Which peers may set X-Forwarded-For (proxy-addr syntax: presets loopback/linklocal/uniquelocal and CIDRs). The
   * per-address sign-in limits read the client address through it, so it trusts only this host by default: any client
   * it trusts can claim any address (issue 37: private ranges let every LAN or container client do so). A deployment
   * behind a proxy on another host names that proxy's address.
   */
  TRUST_PROXY: z.string().min(1).default('loopback'),
  /**
   * Password hashes (scrypt) computed at once; the rest wait in a short queue, beyond which sign-ins are told to retry.
   * Trusted sign-ins (an address the account signed in from, or its session) wait apart, not counted (password.ts).
   */
  SCRYPT_CONCURRENCY: intFrom(1, 16).default(2),
  SCRYPT_QUEUE: intFrom(0, 1000).default(16),
  /**
   * Expensive calls (statistics, similarity, classify uploads) one user may have in flight at once; more are refused.
   * 4: Data detail asks for four cards at once (issue 37).
   */
  EXPENSIVE_PER_USER: intFrom(1, 100).default(4),
  /**
   * Instrument image uploads the process works on at once (issue 39): beyond it an upload is answered 503 with
   * Retry-After before its body is read (docs/device-protocol.md "Back-pressure"). 32 is about a second of work on
   * two cores; each in flight holds its body and decoded pixels.
   */
  INGEST_IN_FLIGHT: intFrom(1, 10_000).default(32),
  /** Image uploads one instrument may have in progress at once; more answer 429 with Retry-After. */
  INGEST_PER_DEVICE: intFrom(1, 1000).default(4),
  /** Live event streams (GET /api/events) one user may hold open at once (a tab each); more are refused with 1003. */
  EVENT_STREAMS_PER_USER: intFrom(1, 100).default(8),
  /** Live event streams the process holds open at once, all users together. */
  EVENT_STREAMS_MAX: intFrom(1, 100_000).default(2000),
  /** A live event stream ends after this long and the browser opens a new one (its session is checked again then). */
  EVENT_STREAM_MAX_MS: intFrom(1000, 86_400_000).default(30 * 60_000),
  /** A comment line on each live event stream this often; its session is checked then too (ended: the stream ends). */
  EVENT_HEARTBEAT_MS: intFrom(100, 600_000).default(20_000),
  /** How often every station with alarm rules is evaluated again (silence raises no report: offline, no images). */
  ALARM_CHECK_MS: intFrom(200, 3_600_000).default(30_000),
  /** How often the webhook outbox is looked at for notices due (new ones are sent at once). */
  WEBHOOK_POLL_MS: intFrom(100, 600_000).default(5_000),
  /**
   * Comma-separated host names (or addresses) alarm webhooks may reach although they are inside this host or its
   * networks (loopback, private, link-local); every other such address is refused when saved and when connected to.
   */
  WEBHOOK_ALLOW_HOSTS: z.string().default(''),
  /**
   * GET /metrics (Prometheus text): answered only to a scraper that sends `Authorization: Bearer <METRICS_TOKEN>` (at
   * least 16 characters) or connects from an address in METRICS_ALLOW (comma-separated, exact addresses; the socket's
   * own address, never a forwarded header). Neither set: /metrics does not exist (404).
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  METRICS_ALLOW: z.string().default(''),
});

export type Config = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

/** Reads the environment; throws a ConfigError that names every bad variable and why. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(clean);
  if (!result.success) {
    const lines = result.error.issues.map(
      (i) => `  ${i.path.join('.')}: ${i.message} (got "${String(clean[String(i.path[0])])}")`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Defaults for tests and tools: the environment's values are not read. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...EnvSchema.parse({}),
    // The lowest cost the config allows: hashing is a cost of each test world, not what a test checks (hardening.test
    // sets its own).
    SCRYPT_LOG_N: 10,
    LOG_LEVEL: 'silent',
    JOB_WORKER: 'off',
    // Features on the test's own thread; feature-pool.test.ts and the e2e servers run the worker threads.
    FEATURE_WORKERS: 0,
    // Test apps share one broker: each gets its own group, or they would take each other's messages.
    MQTT_GROUP: `test-${crypto.randomBytes(4).toString('hex')}`,
    ...overrides,
  };
}
