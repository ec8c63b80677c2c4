import { describe, expect, it } from 'vitest';
import { keyName } from '../hooks/use-identify-keys';
import { labelMark, scaleBar, shortConfidence, topText } from './thumbnail';

describe('what a thumbnail says (issue 25)', () => {
  it('marks dubious over anything else, then validated, predicted, none', () => {
    expect(labelMark({ type: 'hi', review_status: 'pending' })).toBe('dubious');
    expect(labelMark({ type: 'ai', review_status: 'rejected' })).toBe('dubious');
    expect(labelMark({ type: 'hi', review_status: 'approved' })).toBe('validated');
    expect(labelMark({ type: 'ai', review_status: 'none' })).toBe('predicted');
    expect(labelMark({ type: 'ui', review_status: 'none' })).toBe('none');
  });

  it('prints whole percents, never 100 % for a guess, and the top 3 with names', () => {
    expect(shortConfidence(0.826)).toBe('82%');
    expect(shortConfidence(0.9999)).toBe('99%');
    expect(shortConfidence(0)).toBe('0%');
    expect(
      topText(
        [
          { class_id: 1, p: 0.7 },
          { class_id: 9, p: 0.2 },
        ],
        (id) => (id === 1 ? 'Copepod' : `#${id}`),
      ),
    ).toBe('Copepod 70% · #9 20%');
  });

  it('draws a round µm length of at most 40% of the box, from the shown scale', () => {
    // 100 × 50 px image at 5 µm/px in a 120 px box: 1.2 screen px per image px, 0.24 px per µm; 40% of 120 is 48 px.
    expect(scaleBar({ width: 100, height: 50, pixel_size_um: 5 }, 120)).toEqual({ um: 200, px: 48 });
    // Twice the box: the same object is shown twice as large, the bar names the same length at twice the width.
    expect(scaleBar({ width: 100, height: 50, pixel_size_um: 5 }, 240)).toEqual({ um: 200, px: 96 });
    expect(scaleBar({ width: 100, height: 50, pixel_size_um: null }, 120)).toBeNull();
    // A frame 1 m wide shrunk into 120 px: even the longest length (5 mm) would be under 8 px on screen, so no bar.
    expect(scaleBar({ width: 100_000, height: 10, pixel_size_um: 10 }, 120)).toBeNull();
  });
});

describe('key names', () => {
  const ev = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });
  it('names modifiers first, Ctrl and ⌘ alike, and a typed symbol as typed', () => {
    expect(keyName(ev('V'))).toBe('v');
    expect(keyName(ev('A', { ctrlKey: true, shiftKey: true }))).toBe('mod+shift+a');
    expect(keyName(ev('z', { metaKey: true }))).toBe('mod+z');
    expect(keyName(ev('ArrowRight', { shiftKey: true }))).toBe('shift+arrowright');
    expect(keyName(ev('?', { shiftKey: true }))).toBe('?');
    expect(keyName(ev(' '))).toBe('space');
    expect(keyName(ev('v', { altKey: true }))).toBeNull();
  });
});
