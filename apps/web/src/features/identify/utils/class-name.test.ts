import { describe, expect, it } from 'vitest';
import { checkClassName } from './class-name';

describe('class naming rule (spec §5)', () => {
  it('accepts three digits followed by Chinese characters, letters, digits, "-" or "_"', () => {
    for (const name of ['101Copepod', '007桡足类', '123a', '999Diatom_chain-2', '  101Trimmed  ']) {
      expect(checkClassName(name), name).toBeNull();
    }
  });

  it('says an empty name is empty, whitespace included', () => {
    for (const name of ['', '   ', undefined, null]) expect(checkClassName(name)).toBe('empty');
  });

  it('refuses names without the three leading digits, with spaces or other characters, or digits alone', () => {
    for (const name of ['Copepod', '12Copepod', '101 Copepod', '101Cope pod', '101Copepod!', '101', 'bad name', '101/x']) {
      expect(checkClassName(name), name).toBe('bad');
    }
  });
});
