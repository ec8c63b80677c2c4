import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEME } from './theme';

/** A CSS colour (#rrggbb or rgba over white) as the sRGB it shows on `under`. */
function rgb(color: string, under: [number, number, number] = [255, 255, 255]): [number, number, number] {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16)) as [number, number, number];
  const rgba = /^rgba?\(([^)]+)\)$/.exec(color);
  if (!rgba) throw new Error(`not a colour: ${color}`);
  const [r, g, b, a = 1] = rgba[1]!.split(',').map(Number);
  return [r!, g!, b!].map((c, i) => Math.round(c * a + under[i]! * (1 - a))) as [number, number, number];
}

const luminance = ([r, g, b]: [number, number, number]) => {
  const channel = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

/** WCAG 2 contrast ratio of a text colour on a background. */
function contrast(text: string, background: string): number {
  const bg = rgb(background);
  const [a, b] = [luminance(rgb(text, bg)), luminance(bg)].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
}

describe('the theme (issue 37)', () => {
  const token = theme.getDesignToken(THEME) as unknown as Record<string, string>;
  const LAYOUT = '#f5f5f5';

  it('gives every text colour a 4.5:1 contrast on white and on the layout grey', () => {
    const pairs: [string, string, string][] = [
      ['white on the primary button', '#ffffff', token.colorPrimary!],
      ['white on a danger button', '#ffffff', token.colorError!],
      ['a link', token.colorLink!, '#ffffff'],
      ['secondary text', token.colorTextSecondary!, LAYOUT],
      ['descriptions (Typography secondary, hints, statistic titles)', token.colorTextDescription!, LAYOUT],
      ['placeholders and suffixes', token.colorTextPlaceholder!, '#ffffff'],
      ['the success tag', token.colorSuccess!, token.colorSuccessBg!],
      ['the error tag', token.colorError!, token.colorErrorBg!],
      ['the warning tag', token.colorWarning!, token.colorWarningBg!],
      ...['blue', 'cyan', 'green', 'orange', 'gold', 'lime', 'volcano', 'red', 'purple', 'magenta', 'geekblue', 'yellow'].map(
        (c): [string, string, string] => [`the ${c} tag`, token[`${c}-7`]!, token[`${c}-1`]!],
      ),
    ];
    const low = pairs
      .map(([what, text, background]) => `${what}: ${contrast(text, background).toFixed(2)}`)
      .filter((line) => Number(line.split(': ')[1]) < 4.5);
    expect(low).toEqual([]);
  });

  it('keeps disabled controls faint, apart from enabled ones', () => {
    expect(contrast(token.colorTextDisabled!, '#ffffff')).toBeLessThan(2);
  });
});
