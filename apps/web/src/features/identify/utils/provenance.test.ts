import type { AiLabel } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { labelProvenance } from './provenance';

const AI: AiLabel = {
  model_id: 4,
  model_version: 3,
  class_id: 7,
  confidence: 0.81,
  top: [{ class_id: 7, class_name: '007Noctiluca', p: 0.81 }],
  low_confidence: false,
  labelled_at: 5_000,
};
const roi = (over: object) => ({
  type: 'ai' as const,
  class_id: 7,
  confidence: 0.9,
  received_at: 1_000,
  labelled_by_name: null,
  labelled_at: null,
  ...over,
});

describe('who labelled an ROI', () => {
  it('names the instrument for a device label (no model label), with the time it arrived and its confidence', () => {
    expect(labelProvenance(roi({}), null)).toEqual({
      source: 'device',
      modelVersion: null,
      person: null,
      at: 1_000,
      confidence: 0.9,
    });
    // The model labelled another class once, the instrument's label stands.
    expect(labelProvenance(roi({ class_id: 2 }), AI)?.source).toBe('device');
  });

  it('names the model and its version when the stored AI label is the class, with its time and confidence', () => {
    expect(labelProvenance(roi({}), AI)).toEqual({
      source: 'model',
      modelVersion: 3,
      person: null,
      at: 5_000,
      confidence: 0.81,
    });
  });

  it('names the person who gave a hand label and when, without a confidence', () => {
    expect(labelProvenance(roi({ type: 'hi', labelled_by_name: 'Zhang Wei', labelled_at: 9_000 }), AI)).toEqual({
      source: 'person',
      modelVersion: null,
      person: 'Zhang Wei',
      at: 9_000,
      confidence: null,
    });
    // A hand label given before the console recorded it (or imported): a person, no time.
    expect(labelProvenance(roi({ type: 'hi' }), AI)).toEqual({
      source: 'person',
      modelVersion: null,
      person: null,
      at: null,
      confidence: null,
    });
  });

  it('gives an unclassified image no labeller and no confidence', () => {
    expect(labelProvenance(roi({ type: 'ui', class_id: null, confidence: 0 }), null)).toEqual({
      source: 'none',
      modelVersion: null,
      person: null,
      at: null,
      confidence: null,
    });
  });

  it('does not guess while the AI information loads', () => {
    expect(labelProvenance(roi({}), undefined)).toBeNull();
  });
});
