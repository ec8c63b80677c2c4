import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, roiMultipart, uploadRoi } from './helpers/device.ts';
import { ecotaxaDecode } from './helpers/ecotaxa-rules.ts';
import { unzip, zipOf } from './helpers/zip.ts';
import { STARTER_TAXA, starterTaxonOf } from '../src/modules/taxa/starter-taxa.ts';

interface Item {
  id: number;
  title: string;
  taxon: { name: string; aphia_id: number | null; name_zh: string | null; source: string } | null;
}

describe('the starter list', () => {
  it('maps the demo and PWSSC classes by name without digits or case, and nothing else', () => {
    expect(starterTaxonOf('001Copepod')).toEqual({ name: 'Copepoda', aphia_id: 1080, name_zh: '桡足类' });
    expect(starterTaxonOf('104larvacea')).toEqual({ name: 'Appendicularia', aphia_id: 146421, name_zh: '有尾类' });
    for (const none of ['000Unclassified', '120Blob', '121Unknown', '122constructor', '123__proto__', 'toString'])
      expect(starterTaxonOf(none)).toBeNull();
    // Every entry is a name EcoTaxa could know (a Latin name, or one of its lower-case non-living categories).
    for (const t of Object.values(STARTER_TAXA)) expect(t.name).toMatch(/^([A-Z][a-z]+|detritus|bubble)$/);
  });
});

describe.each(dialects)('class taxa on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let copepod: number;

  const classes = async (token: string | undefined, groupId?: number) =>
    body(await call(env, token, 'GET', `/api/tool/sys-init?sort=title${groupId ? `&group_id=${groupId}` : ''}`)).data as Item[];
  const taxonIn = async (token: string | undefined, classId: number, groupId?: number) =>
    (await classes(token, groupId)).find((c) => c.id === classId)!.taxon;
  const save = (token: string | undefined, payload: object, lang = 'en') =>
    call(env, token, 'POST', '/api/taxa/save-class-taxon', payload, lang);

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    copepod = (await env.db.kysely.selectFrom('classes').select('id').where('name', '=', '001Copepod').executeTakeFirstOrThrow())
      .id;
  });
  afterEach(() => env.close());

  it("a team maps a class to its own taxon; other teams keep theirs; reset gives the starter list's back", async () => {
    expect(await taxonIn(w.tokens.user, copepod)).toEqual({
      name: 'Copepoda',
      aphia_id: 1080,
      name_zh: '桡足类',
      source: 'starter',
    });
    // A class the starter list does not know has no taxon until the team maps it.
    await env.db.kysely
      .insertInto('classes')
      .values({ name: '120Blob', label_index: 120, system: 0, group_id: w.teamA, created_at: env.clock.now })
      .execute();
    expect((await classes(w.tokens.user)).find((c) => c.title === '120Blob')!.taxon).toBeNull();

    const saved = body(
      await save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: ' Calanus ', aphia_id: 104152, name_zh: '哲水蚤属' }),
    );
    expect(saved).toMatchObject({
      code: 1000,
      data: { class_id: copepod, taxon: { name: 'Calanus', aphia_id: 104152, name_zh: '哲水蚤属', source: 'team' } },
    });
    expect(await taxonIn(w.tokens.user, copepod)).toMatchObject({ name: 'Calanus', source: 'team' });
    expect(await taxonIn(w.tokens.otherAdmin, copepod)).toMatchObject({ name: 'Copepoda', source: 'starter' });
    expect(await taxonIn(w.tokens.superadmin, copepod, w.teamA)).toMatchObject({ name: 'Calanus' });
    expect(await taxonIn(w.tokens.superadmin, copepod)).toMatchObject({ name: 'Copepoda' });

    // "No taxon": the class is not a taxon for this team (an AphiaID or a Chinese name alone describe nothing).
    expect(body(await save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: '', aphia_id: 5, name_zh: 'x' })).code).toBe(1000);
    expect(await taxonIn(w.tokens.user, copepod)).toBeNull();
    // The superadmin maps for the team it names.
    expect(body(await save(w.tokens.superadmin, { class_id: copepod, group_id: w.teamA, taxon_name: 'Acartia' })).code).toBe(
      1000,
    );
    expect(await taxonIn(w.tokens.user, copepod)).toEqual({ name: 'Acartia', aphia_id: null, name_zh: null, source: 'team' });
    expect(body(await save(w.tokens.ownAdmin, { class_id: copepod, reset: true })).data).toMatchObject({
      taxon: { name: 'Copepoda', source: 'starter' },
    });
    expect(await env.db.kysely.selectFrom('class_taxa').selectAll().execute()).toEqual([]);
  });

  it('the EcoTaxa export writes the team taxon, and an import finds the class by it', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    const res = body(
      await uploadRoi(
        env,
        a1.key,
        { captured_at: Date.UTC(2026, 10, 22), label_index: 1, confidence: 0.9, size_px: 100 },
        await pngOf(5),
      ),
    );
    expect(res.code, JSON.stringify(res)).toBe(1000);
    const id = (res.data as { roi_id: number }).roi_id;
    await save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: 'Calanus', aphia_id: 104152 });
    const exported = await env.app.inject({
      method: 'POST',
      url: '/api/roi/export',
      headers: { 'x-token': w.tokens.user ?? '' },
      payload: { format: 'ecotaxa', roi_ids: [id] },
    });
    const files = await unzip(exported.rawPayload);
    const [head, , row] = ecotaxaDecode(files.get('ecotaxa_export.tsv')!)
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    const cell = (name: string) => row![head!.indexOf(name)];
    expect([cell('object_annotation_category'), cell('object_aphia_id')]).toEqual(['Calanus', '104152']);
    // Another tool's table names the taxon only: the team's mapping finds 001Copepod.
    const table =
      'img_file_name\tobject_date\tobject_annotation_status\tobject_annotation_category\nx.png\t20260101\tpredicted\tcalanus\n';
    const zip = await zipOf({ 't.tsv': Buffer.from(table), 'x.png': await pngOf(6) });
    const { payload, headers } = roiMultipart({}, zip);
    const imported = body(
      await env.app.inject({
        method: 'POST',
        url: '/api/roi/import?dev_id=A2&format=ecotaxa',
        payload,
        headers: { ...headers, 'x-token': w.tokens.ownAdmin ?? '' },
      }),
    );
    expect((imported.data as { classes: unknown[] }).classes).toEqual([
      { folder: 'calanus', class: '001Copepod', created: false, images: 1, duplicates: 0 },
    ]);
  });

  it('refuses bad names and ids in the caller language, other teams, plain users and unknown classes; changes nothing', async () => {
    const zh = body(await save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: '1Copepoda' }, 'zh'));
    expect(zh).toMatchObject({
      code: 1002,
      msg: "参数错误：taxon_name 应为拉丁学名（以字母开头，只含字母、数字、空格和 . ( ) ' < _ -）",
    });
    expect(body(await save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: 'Cop', aphia_id: 0 }))).toMatchObject({
      msg: 'Invalid parameter: aphia_id must be at least 1',
    });
    for (const bad of [
      { class_id: copepod, taxon_name: 'Copepoda', aphia_id: 0 },
      { class_id: copepod, taxon_name: 'x'.repeat(129) },
      { class_id: copepod, taxon_name: 'Copepoda', name_zh: '桡'.repeat(65) },
      { class_id: 0, taxon_name: 'Copepoda' },
    ])
      expect(body(await save(w.tokens.ownAdmin, bad)).code).toBe(1002);
    expect(body(await save(w.tokens.ownAdmin, { class_id: 99_999, taxon_name: 'Copepoda' }))).toMatchObject({
      code: 1002,
      msg: 'The class does not exist',
    });
    expect(body(await save(w.tokens.user, { class_id: copepod, taxon_name: 'Calanus' })).code).toBe(1011);
    expect(body(await save(w.tokens.otherAdmin, { class_id: copepod, group_id: w.teamA, taxon_name: 'Calanus' })).code).toBe(
      1011,
    );
    expect(body(await save(w.tokens.superadmin, { class_id: copepod, taxon_name: 'Calanus' })).code).toBe(1002);
    expect(body(await save(undefined, { class_id: copepod, taxon_name: 'Calanus' })).code).toBe(1010);
    // Any string at all is answered: saved when it is a Latin name, refused with 1002 otherwise, never a 5xx.
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 140 }), async (name) => {
        const res = await save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: name });
        expect(res.statusCode).toBeLessThan(500);
        expect([1000, 1002]).toContain(body(res).code);
      }),
      { numRuns: 40 },
    );
    await save(w.tokens.ownAdmin, { class_id: copepod, reset: true });
    expect(await env.db.kysely.selectFrom('class_taxa').selectAll().execute()).toEqual([]);
  });

  it('two administrators map the same class at once: one row, one of the two names', async () => {
    const admin2 = await import('./helpers/build.ts').then(async (b) => {
      await b.createUser(env, 'admin_a2', 'administrator', { groupId: w.teamA });
      return b.login(env, 'admin_a2');
    });
    const [one, two] = await Promise.all([
      save(w.tokens.ownAdmin, { class_id: copepod, taxon_name: 'Calanus' }),
      save(admin2, { class_id: copepod, taxon_name: 'Acartia' }),
    ]);
    expect([body(one).code, body(two).code]).toEqual([1000, 1000]);
    const rows = await env.db.kysely.selectFrom('class_taxa').select(['taxon_name']).execute();
    expect(rows).toHaveLength(1);
    expect(['Calanus', 'Acartia']).toContain(rows[0]!.taxon_name);
    expect(await taxonIn(w.tokens.user, copepod)).toMatchObject({ name: rows[0]!.taxon_name });
  });
});
