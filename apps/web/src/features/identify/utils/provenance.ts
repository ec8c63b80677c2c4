import type { AiLabel, RoiType } from '@ipp/contracts';

/** Who gave an ROI its current label. */
export type LabelSource = 'device' | 'model' | 'person' | 'none';

export interface Provenance {
  source: LabelSource;
  /** The model's version when a model labelled it. */
  modelVersion: number | null;
  /** The person who gave a hand label, by name, where the console recorded it. */
  person: string | null;
  /** When the label was given, where the console knows it (hand labels given before it was recorded: unknown). */
  at: number | null;
  /** How sure the labeller was; only machines say (the instrument or the model), never for a hand label or none. */
  confidence: number | null;
}

interface LabelledRoi {
  type: RoiType;
  class_id: number | null;
  confidence: number | null;
  received_at: number;
  /** A hand label's author (name) and time, recorded by the server; null where unknown. */
  labelled_by_name: string | null;
  labelled_at: number | null;
}

/**
 * Who labelled the ROI, when and how sure (the detail pane). HI: the person who labelled it and when, as recorded
 * (older hand labels and imported ones: a person, no time). UI: nobody (no confidence, whatever the
 * instrument sent with label 0). AI: the team's model when its stored label is the ROI's class (given at ingest or by
 * a re-identification), otherwise the instrument, whose label arrived with the image. `ai` undefined: the AI
 * information is still loading, and an AI-typed ROI cannot be told apart yet (null).
 */
export function labelProvenance(roi: LabelledRoi, ai: AiLabel | null | undefined): Provenance | null {
  if (roi.type === 'ui') return { source: 'none', modelVersion: null, person: null, at: null, confidence: null };
  if (roi.type === 'hi') {
    return { source: 'person', modelVersion: null, person: roi.labelled_by_name, at: roi.labelled_at, confidence: null };
  }
  if (ai === undefined) return null;
  if (ai !== null && ai.class_id === roi.class_id) {
    return { source: 'model', modelVersion: ai.model_version, person: null, at: ai.labelled_at, confidence: ai.confidence };
  }
  return { source: 'device', modelVersion: null, person: null, at: roi.received_at, confidence: roi.confidence };
}
