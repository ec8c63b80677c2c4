import { afterAll, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { checkClassName, classOption } from './class-name';

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

describe('class pickers', () => {
  afterAll(async () => {
    await setLanguage('zh');
  });

  it('mark a class hidden from the team’s users, in English and Chinese; a shown class is its title', async () => {
    await setLanguage('en');
    const t = i18n.t.bind(i18n);
    expect(classOption({ id: 1, title: '001Copepod', visible: false }, t)).toEqual({ value: 1, label: '001Copepod (hidden)' });
    expect(classOption({ id: 2, title: '002Diatom', visible: true }, t)).toEqual({ value: 2, label: '002Diatom' });
    await setLanguage('zh');
    expect(classOption({ id: 1, title: '001桡足类', visible: false }, i18n.t.bind(i18n)).label).toBe('001桡足类（已隐藏）');
  });
});
