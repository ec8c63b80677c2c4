import { z } from 'zod';
import { MAX_ID } from './ids.ts';

/**
 * A silence (issue 40): for a period, the alarms of a station, of a rule, of a rule on a station, or of the whole team
 * raise and clear as always and stay listed (marked silenced), but nobody is notified of their raising; a raise held
 * this way is notified when the silence ends if the alarm is still active. A silence that starts later is a scheduled
 * maintenance window. It ends by itself.
 */
export const AlarmSilenceSchema = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  /** null: every station of the team. */
  ipp_id: z.number().int().nullable(),
  site_name: z.string().nullable(),
  /** null: every rule. */
  rule_id: z.number().int().nullable(),
  rule_name: z.string().nullable(),
  starts_at: z.number().int(),
  ends_at: z.number().int(),
  reason: z.string(),
  created_by_name: z.string(),
  created_at: z.number().int(),
});
export type AlarmSilence = z.infer<typeof AlarmSilenceSchema>;

/** The longest one silence lasts, and how far ahead a maintenance window may be planned. */
export const MAX_SILENCE_MS = 30 * 24 * 3_600_000;
export const MAX_SILENCE_LEAD_MS = 90 * 24 * 3_600_000;
/** The most silences a team keeps running or planned at once. */
export const MAX_SILENCES_PER_TEAM = 100;

/** GET /alarm/silences: the team's silences running now or planned, soonest end first. */
export const AlarmSilencesQuerySchema = z.object({
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});

/** POST /alarm/save-silence: anyone of the team; `starts_at` absent = now. */
export const AlarmSilenceSaveBodySchema = z
  .object({
    group_id: z.number().int().positive().max(MAX_ID).optional(),
    ipp_id: z.number().int().positive().max(MAX_ID).nullable().default(null),
    rule_id: z.number().int().positive().max(MAX_ID).nullable().default(null),
    starts_at: z.number().int().positive().optional(),
    ends_at: z.number().int().positive(),
    reason: z.string().trim().min(1).max(500),
  })
  .superRefine((body, ctx) => {
    if (body.starts_at !== undefined && body.ends_at <= body.starts_at)
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'reason.endAfterStart' });
  });
export type AlarmSilenceSaveBody = z.input<typeof AlarmSilenceSaveBodySchema>;
