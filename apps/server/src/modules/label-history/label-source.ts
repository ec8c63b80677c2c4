import type { LabelEvent } from './label-events.repository.ts';

/**
 * Who changes a label and how (issue 25): a person (userId) or a model (modelId, a re-identification), the action
 * (a bulk action code or 'reidentify', 'set-label', 'to-hi', 'undo', 'system') and the bulk action it is part of.
 */
export interface LabelSource {
  userId: number | null;
  modelId?: number | null;
  action: string;
  bulkId?: number | null;
}

/** A change made by the system itself (no person, no model). */
export const SYSTEM_LABEL: LabelSource = { userId: null, action: 'system' };

export function labelEvent(
  from: { id: number; class_id: number | null; hi: number },
  to: { classId: number | null; hi: number },
  source: LabelSource,
  at: number,
): LabelEvent {
  return {
    roi_id: from.id,
    at,
    user_id: source.userId,
    model_id: source.modelId ?? null,
    action: source.action,
    from_class_id: from.class_id,
    from_hi: from.hi,
    to_class_id: to.classId,
    to_hi: to.hi,
    bulk_id: source.bulkId ?? null,
  };
}
