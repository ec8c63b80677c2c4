import { z } from 'zod';
import { AlarmSchema } from './alarms.ts';
import { MAX_ID } from './ids.ts';

/* What reaches people beyond the console (issues 23, 40): the webhook, its events and notices, e-mail, test notices. */

/**
 * POST /alarm/test-webhook and /alarm/test-email: one notice sent now (not through the outbox), and how it went — for
 * the webhook the failure's class as in WEBHOOK_FAILURES, for e-mail "send failed".
 */
export const AlarmTestResultSchema = z.object({ ok: z.boolean(), error: z.string().nullable() });
/** A superadmin names the team whose webhook it tests; others test their own. */
export const AlarmTestWebhookBodySchema = z.object({ group_id: z.number().int().positive().max(MAX_ID).optional() });
export type AlarmTestResult = z.infer<typeof AlarmTestResultSchema>;

/**
 * What a team administrator is told of a failed webhook try: a class, never the receiver's status or words (issue 37);
 * the console shows each in the viewer's language.
 */
export const WEBHOOK_FAILURES = [
  'timeout',
  'refused',
  'unknown host',
  'TLS error',
  'network error',
  'HTTP error',
  'address not allowed',
  'webhook removed',
] as const;
export type WebhookFailureKind = (typeof WEBHOOK_FAILURES)[number];

/** A team's webhook as administrators see it: never the secret itself, only its last characters. */
export const AlarmWebhookSchema = z.object({
  url: z.string().nullable(),
  secret_hint: z.string().nullable(),
  updated_at: z.number().int().nullable(),
  /** Notices waiting to be sent or retried, and those given up after every retry. */
  pending: z.number().int(),
  failed: z.number().int(),
  last_delivery: z
    .object({ at: z.number().int(), ok: z.boolean(), error: z.string().nullable(), attempts: z.number().int() })
    .nullable(),
});
export type AlarmWebhook = z.infer<typeof AlarmWebhookSchema>;

export const AlarmWebhookQuerySchema = z.object({
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});

/**
 * POST /alarm/save-webhook: the URL alarms are posted to (null removes it). A new secret is made when the first URL is
 * saved or when asked; it is answered once, like a device key.
 */
export const AlarmWebhookSaveBodySchema = z.object({
  group_id: z.number().int().positive().max(MAX_ID).optional(),
  url: z
    .url({ protocol: /^https?$/, message: 'reason.format' })
    .max(2000)
    .nullable(),
  new_secret: z.boolean().default(false),
});
export type AlarmWebhookSaveBody = z.input<typeof AlarmWebhookSaveBodySchema>;

export const AlarmWebhookSaveResultSchema = z.object({ webhook: AlarmWebhookSchema, secret: z.string().nullable() });
export type AlarmWebhookSaveResult = z.infer<typeof AlarmWebhookSaveResultSchema>;

/** The headers of a webhook notice: when it was signed, and `v1=` HMAC-SHA256 (hex) of `<timestamp>.<body>`. */
export const WEBHOOK_TIMESTAMP_HEADER = 'x-ipp-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'x-ipp-signature';

/**
 * The events a webhook hears about one alarm, all with its id: raised, notified again while still active,
 * acknowledged, cleared (its condition ended, an administrator cleared it, or its rule changed or went away),
 * escalated (still unacknowledged past its rule's escalate_minutes, when the rule escalates to the webhook); and
 * `alarm.test`, sent when an administrator asks, with a made-up alarm of id 0.
 */
export const ALARM_EVENTS = [
  'alarm.raised',
  'alarm.again',
  'alarm.acknowledged',
  'alarm.cleared',
  'alarm.escalated',
  'alarm.test',
] as const;
export type AlarmEvent = (typeof ALARM_EVENTS)[number];
/** Why a notice is made (the event without its prefix). */
export type AlarmNoticeReason = 'raised' | 'again' | 'acknowledged' | 'cleared' | 'escalated';

/** The JSON body of a webhook notice. */
export const AlarmNoticeSchema = z.object({
  event: z.enum(ALARM_EVENTS),
  /** When the notice was made (a retry sends the same body, signed again). */
  at: z.number().int(),
  alarm: AlarmSchema,
});
export type AlarmNotice = z.infer<typeof AlarmNoticeSchema>;

/** Which alarms a user is e-mailed about: none, every alarm of the team, or those of the stations the user follows. */
export const ALARM_EMAIL_CHOICES = ['off', 'team', 'followed'] as const;
export type AlarmEmailChoice = (typeof ALARM_EMAIL_CHOICES)[number];

/** GET /alarm/my-email: the caller's choice, the address it goes to, and whether this server sends e-mail at all. */
export const AlarmEmailSettingSchema = z.object({
  alarm_email: z.enum(ALARM_EMAIL_CHOICES),
  email: z.string(),
  available: z.boolean(),
});
export type AlarmEmailSetting = z.infer<typeof AlarmEmailSettingSchema>;

export const AlarmEmailSaveBodySchema = z.object({ alarm_email: z.enum(ALARM_EMAIL_CHOICES) });
