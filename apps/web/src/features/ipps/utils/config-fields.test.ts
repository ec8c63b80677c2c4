import { DEFAULT_IPP_CONFIG, IppConfigSchema } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, isRecommended, limitProblem } from './config-fields';

const byKey = (key: string) => {
  const found = CONFIG_FIELDS.find((field) => field.key === key);
  if (!found) throw new Error(`no field ${key}`);
  return found;
};

describe('instrument config fields', () => {
  it('offer every setting of the contract exactly once', () => {
    expect(CONFIG_FIELDS.map((field) => field.key).sort()).toEqual(Object.keys(IppConfigSchema.shape).sort());
  });

  it('refuse exactly what the server refuses', () => {
    for (const field of CONFIG_FIELDS) {
      const schema = IppConfigSchema.shape[field.key];
      const probes = [
        field.min - 1,
        field.min - 0.5,
        field.min,
        field.min + 0.5,
        field.max - 0.5,
        field.max,
        field.max + 0.1,
        field.max + 1,
      ];
      for (const value of probes) {
        expect(limitProblem(field, value) === null, `${field.key} = ${value}`).toBe(schema.safeParse(value).success);
      }
    }
  });

  it('names the limit that was crossed', () => {
    expect(limitProblem(byKey('frame_rate'), 30)).toEqual({ kind: 'max', max: 29 });
    expect(limitProblem(byKey('frame_rate'), 29)).toBeNull();
    expect(limitProblem(byKey('background_count'), 49)).toEqual({ kind: 'min', min: 50 });
    expect(limitProblem(byKey('background_count'), 50.5)).toEqual({ kind: 'integer' });
    expect(limitProblem(byKey('gain'), null)).toEqual({ kind: 'required' });
  });

  it('start from defaults that are inside the limits and recommended', () => {
    for (const field of CONFIG_FIELDS) {
      expect(limitProblem(field, DEFAULT_IPP_CONFIG[field.key]), field.key).toBeNull();
      expect(isRecommended(field, DEFAULT_IPP_CONFIG[field.key]), field.key).toBe(true);
    }
  });

  it('tell recommended values from merely allowed ones (spec §5)', () => {
    expect(isRecommended(byKey('frame_rate'), 7)).toBe(true);
    expect(isRecommended(byKey('frame_rate'), 7.5)).toBe(false);
    expect(isRecommended(byKey('exposure_us'), 79)).toBe(false);
    expect(isRecommended(byKey('focus_threshold'), 800)).toBe(true);
    expect(isRecommended(byKey('focus_threshold'), 750)).toBe(false);
    expect(isRecommended(byKey('wiper_strokes'), 3)).toBe(false);
    expect(isRecommended(byKey('gain'), 40)).toBe(true);
  });
});
