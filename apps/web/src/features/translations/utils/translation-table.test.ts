import { describe, expect, it } from 'vitest';
import { buildRows, effectiveText, matchesSearch, pendingItems, toCsv, toJson, type Drafts } from './translation-table';

const BUNDLED = {
  zh: { 'app.name': 'IPP 控制台', 'route.home': '系统概览' },
  en: { 'app.name': 'IPP Console', 'route.home': 'System Overview' },
};

const rows = buildRows(BUNDLED, {
  zh: [{ key: 'route.home', text: '总览' }],
  en: [
    { key: 'app.name', text: 'Probe Desk' },
    { key: 'legacy.key', text: 'Old' },
  ],
});

describe('buildRows', () => {
  it('merges every bundled key with the overrides of both languages, then server-only keys', () => {
    expect(rows).toEqual([
      { key: 'app.name', bundled: { zh: 'IPP 控制台', en: 'IPP Console' }, override: { zh: null, en: 'Probe Desk' } },
      { key: 'route.home', bundled: { zh: '系统概览', en: 'System Overview' }, override: { zh: '总览', en: null } },
      { key: 'legacy.key', bundled: { zh: '', en: '' }, override: { zh: null, en: 'Old' } },
    ]);
  });

  it('shows the override where there is one and the bundled text elsewhere', () => {
    const none: Drafts = new Map();
    expect(effectiveText(rows[0]!, none, 'en')).toBe('Probe Desk');
    expect(effectiveText(rows[0]!, none, 'zh')).toBe('IPP 控制台');
  });
});

describe('pendingItems', () => {
  it('sends each edited key with both languages, the unedited one as the server has it', () => {
    const drafts: Drafts = new Map([
      ['app.name', { zh: '浮游台' }],
      ['route.home', { zh: '' }],
    ]);
    expect(pendingItems(rows, drafts)).toEqual([
      { key: 'app.name', zh: '浮游台', en: 'Probe Desk' },
      // An emptied cell removes that override.
      { key: 'route.home', zh: null, en: null },
    ]);
  });

  it('leaves out edits that end where the server already is', () => {
    expect(pendingItems(rows, new Map([['app.name', { en: 'Probe Desk', zh: '' }]]))).toEqual([]);
  });
});

describe('matchesSearch', () => {
  it('finds rows by key, bundled text, override or unsaved edit, ignoring case', () => {
    const drafts: Drafts = new Map([['route.home', { en: 'Dashboard' }]]);
    const found = (needle: string) => rows.filter((row) => matchesSearch(row, drafts, needle)).map((row) => row.key);
    expect(found('ROUTE.')).toEqual(['route.home']);
    expect(found('console')).toEqual(['app.name']);
    expect(found('probe')).toEqual(['app.name']);
    expect(found('dashboard')).toEqual(['route.home']);
    expect(found('  ')).toHaveLength(3);
  });
});

describe('downloads', () => {
  it('writes JSON in the {"key": {"zh", "en"}} upload format with the texts the console shows', () => {
    expect(JSON.parse(toJson(rows.slice(0, 2), new Map()))).toEqual({
      'app.name': { zh: 'IPP 控制台', en: 'Probe Desk' },
      'route.home': { zh: '总览', en: 'System Overview' },
    });
  });

  it('writes CSV with the key,zh,en header, quoting where needed', () => {
    const tricky = buildRows({ zh: { a: '逗号，"引号"' }, en: { a: 'Comma, "quote"\nline' } }, { zh: [], en: [] });
    expect(toCsv(tricky, new Map())).toBe('key,zh,en\r\na,"逗号，""引号""","Comma, ""quote""\nline"\r\n');
  });
});
