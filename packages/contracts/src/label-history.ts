import { z } from 'zod';
import { MAX_ID } from './ids.ts';

/** How long a user's last bulk action can be undone (issue 25). */
export const UNDO_WINDOW_MS = 15 * 60_000;

export const LabelHistoryQuerySchema = z.object({ roi_id: z.coerce.number().int().positive().max(MAX_ID) });

/** One change of an ROI's label: who (a person or a model), when, by which action, from and to. */
export const LabelEventSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  /** The person; null for a model or the system. The name is null for a removed account. */
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  /** The model that re-identified it, with its version. */
  model_id: z.number().int().nullable(),
  model_version: z.number().int().nullable(),
  /** A bulk action code (docs/actions.md), or reidentify, set-label, to-hi, undo, system. */
  action: z.string(),
  from_class_id: z.number().int().nullable(),
  from_class_name: z.string().nullable(),
  from_hi: z.number().int(),
  to_class_id: z.number().int().nullable(),
  to_class_name: z.string().nullable(),
  to_hi: z.number().int(),
  /** Part of this bulk action. */
  bulk_id: z.number().int().nullable(),
});
export type LabelEvent = z.infer<typeof LabelEventSchema>;

/** GET /roi/label-history: how the ROI arrived, then every change of its label, oldest first. */
export const LabelHistorySchema = z.object({
  roi_id: z.number().int(),
  received_at: z.number().int(),
  /** The station that sent it. */
  dev_id: z.string(),
  events: z.array(LabelEventSchema),
});
export type LabelHistory = z.infer<typeof LabelHistorySchema>;

/** GET /roi/last-action: the caller's last bulk action, while it can be undone. */
export const LastActionSchema = z.object({
  bulk_id: z.number().int(),
  code: z.string(),
  category_id: z.number().int(),
  affected: z.number().int(),
  created_at: z.number().int(),
  expires_at: z.number().int(),
});
export type LastAction = z.infer<typeof LastActionSchema>;

export const UndoBodySchema = z.object({ bulk_id: z.number().int().positive().max(MAX_ID) });
export const UndoResultSchema = z.object({
  bulk_id: z.number().int(),
  /** ROIs put back as they were. */
  restored: z.number().int(),
  /** ROIs changed since (or no longer visible), left as they are. */
  skipped: z.number().int(),
});
export type UndoResult = z.infer<typeof UndoResultSchema>;
