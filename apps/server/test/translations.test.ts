import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, get, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { dialects } from './helpers/dialects.ts';
import { upload } from './helpers/upload.ts';
import { parseTranslationCsv } from '../src/modules/translations/translation-file.ts';

describe.each(dialects)('translation overrides on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const lang = async (language: string, query = '') => body(await get(env, `/api/get-lang/lang?language=${language}${query}`));

  it('saves overrides per language, serves them publicly with paging, and removes them with null', async () => {
    const items = [
      { key: 'menu.home', zh: '总览', en: 'Overview' },
      { key: 'menu.about', zh: null, en: 'About us' },
    ];
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/get-lang/save', { items })).data).toEqual({ saved: 2 });
    expect(await lang('zh')).toMatchObject({ data: [{ key: 'menu.home', text: '总览' }], count: 1 });
    expect((await lang('en')).data).toEqual([
      { key: 'menu.about', text: 'About us' },
      { key: 'menu.home', text: 'Overview' },
    ]);
    expect(await lang('en', '&limit=1&page=2')).toMatchObject({ data: [{ key: 'menu.home', text: 'Overview' }], count: 2 });
    await call(env, w.tokens.superadmin, 'POST', '/api/get-lang/save', { items: [{ key: 'menu.about', zh: null, en: '' }] });
    expect((await lang('en')).count).toBe(1);
    expect(body(await get(env, '/api/get-lang/lang?language=fr')).code).toBe(1002);
    const badKey = body(
      await call(env, w.tokens.superadmin, 'POST', '/api/get-lang/save', { items: [{ key: '../x', zh: 'a', en: 'b' }] }),
    );
    expect(badKey).toMatchObject({ code: 1002, model: { field: 'items.0.key' } });
  });

  it('previews an uploaded JSON file, then applies it', async () => {
    await call(env, w.tokens.superadmin, 'POST', '/api/get-lang/save', {
      items: [
        { key: 'a.same', zh: '同', en: 'Same' },
        { key: 'a.old', zh: '旧', en: 'Old' },
      ],
    });
    const file = Buffer.from(
      JSON.stringify({ 'a.same': { zh: '同', en: 'Same' }, 'a.old': { zh: '新' }, 'a.new': { zh: '加', en: 'Added' } }),
    );
    const preview = body(await upload(env, w.tokens.superadmin, '/api/upload/index?action=language&dry_run=1', file, 't.json'));
    expect(preview.data).toEqual({
      applied: false,
      added: [{ key: 'a.new', zh: '加', en: 'Added' }],
      changed: [{ key: 'a.old', zh: '新', en: 'Old', old_zh: '旧', old_en: 'Old' }],
      unchanged: 1,
    });
    expect((await lang('zh')).data).toEqual([
      { key: 'a.old', text: '旧' },
      { key: 'a.same', text: '同' },
    ]);
    const applied = body(await upload(env, w.tokens.superadmin, '/api/upload/index?action=language', file, 't.json'));
    expect(applied.data).toMatchObject({ applied: true });
    expect((await lang('zh')).data).toEqual([
      { key: 'a.new', text: '加' },
      { key: 'a.old', text: '新' },
      { key: 'a.same', text: '同' },
    ]);
  });

  it('reads the by-language JSON layout and CSV with quotes', async () => {
    const byLang = Buffer.from(JSON.stringify({ zh: { 'x.one': '一' }, en: { 'x.one': 'One', 'x.two': 'Two' } }));
    expect(
      body(await upload(env, w.tokens.superadmin, '/api/upload/index?action=language', byLang, 'l.json')).data,
    ).toMatchObject({
      added: [
        { key: 'x.one', zh: '一', en: 'One' },
        { key: 'x.two', zh: null, en: 'Two' },
      ],
    });
    const csv = Buffer.from('\uFEFFkey,zh,en\r\ny.quote,"说""好""","Say ""hi"", then go"\r\ny.multi,"两\n行",\r\n');
    const res = body(await upload(env, w.tokens.superadmin, '/api/upload/index?action=language', csv, 'l.csv'));
    expect(res.data).toMatchObject({
      added: [
        { key: 'y.quote', zh: '说"好"', en: 'Say "hi", then go' },
        { key: 'y.multi', zh: '两\n行', en: null },
      ],
    });
  });

  it('refuses malformed files with a message that says what is wrong, and changes nothing', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['{"a": ', 'x.json', /Malformed file: not valid JSON/],
      ['[1,2]', 'x.json', /JSON must be an object/],
      ['{"k": "v"}', 'x.json', /"k" must be \{"zh": …, "en": …\}/],
      ['name,zh,en\na,b,c', 'x.csv', /header must be key,zh,en/],
      ['key,zh,en\na.b,"open', 'x.csv', /quoted CSV field is not closed/],
      ['key,zh,en\na.b,1', 'x.csv', /line 2 has 2 fields, expected 3/],
      ['key,zh,en\nbad key,x,y', 'x.csv', /invalid key "bad key"/],
      ['', 'x.csv', /the file is empty/],
    ];
    for (const [text, name, message] of cases) {
      const res = await upload(env, w.tokens.superadmin, '/api/upload/index?action=language', Buffer.from(text), name);
      expect(res.statusCode).toBe(400);
      expect(body(res).msg).toMatch(message);
    }
    expect(
      body(await upload(env, w.tokens.superadmin, '/api/upload/index?action=language', Buffer.from('{"a":'), 'x.json', 'zh')).msg,
    ).toMatch(/^文件格式错误：/);
    expect((await lang('zh')).count).toBe(0);
  });

  it('parses CSV edge cases', () => {
    expect(parseTranslationCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseTranslationCsv('a,"b,c"\r\n')).toEqual([['a', 'b,c']]);
  });
});
