import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

/** The entries of a zip, by name. */
function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe.each(dialects)('exports on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let ids: number[];
  let images: Buffer[];
  let bRoi: number;

  const exportCall = (token: string | undefined, payload: object, lang = 'en') =>
    env.app.inject({ method: 'POST', url: '/api/roi/export', headers: { 'x-lang': lang, 'x-token': token ?? '' }, payload });

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { latitude: 36.25, longitude: 121.5 });
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    ids = [];
    images = [];
    for (const [i, label] of [1, 0, 2].entries()) {
      const png = await pngOf(100 + i);
      images.push(png);
      const res = body(
        await uploadRoi(env, a1.key, { captured_at: Date.UTC(2026, 10, 22, 7, i), label_index: label, size_px: 500 + i }, png),
      );
      ids.push((res.data as { roi_id: number }).roi_id);
    }
    bRoi = (
      body(
        await uploadRoi(env, b1.key, { captured_at: Date.UTC(2026, 10, 22, 7, 0), label_index: 1, size_px: 1 }, await pngOf(9)),
      ).data as { roi_id: number }
    ).roi_id;
  });
  afterEach(() => env.close());

  it('exports a selection as CSV, one row per ROI with its station position', async () => {
    const res = await exportCall(w.tokens.user, { format: 'csv', roi_ids: [ids[2], ids[0]] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="rois-\d+\.csv"/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'roi_id,dev_id,site_name,roi_time_utc,class,type,confidence,size_px,width,height,bytes,latitude,longitude,review,sha256',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 6))).toEqual([
      [String(ids[0]), 'A1', 'Site A1', '2026-11-22T07:00:00.000Z', '001Copepod', 'ai'],
      [String(ids[2]), 'A1', 'Site A1', '2026-11-22T07:02:00.000Z', '002Diatom_chain', 'ai'],
    ]);
    expect(lines[1]!.split(',').slice(11, 13)).toEqual(['36.25', '121.5']);
    // Another team's ROI in the selection fails the whole export, in the caller's language.
    const refused = await exportCall(w.tokens.user, { format: 'csv', roi_ids: [ids[0], bRoi] }, 'zh');
    expect(body(refused)).toMatchObject({ code: 1002, msg: 'ROI 信息获取失败' });
    expect(body(await exportCall(w.tokens.user, { format: 'csv' })).code).toBe(1002);
    expect(body(await exportCall(undefined, { format: 'csv', roi_ids: [ids[0]] })).code).toBe(1010);
  });

  it('exports a list query as an EcoTaxa zip: TSV with its type row and the original images', async () => {
    const res = await exportCall(w.tokens.user, {
      format: 'ecotaxa',
      query: { category_id: -100, ipp_id: undefined, code: undefined },
    });
    // Site images need a station: the query is checked like a list.
    expect(body(res).code).toBe(1002);
    const station = (await env.db.kysely.selectFrom('ipps').select('id').where('dev_id', '=', 'A1').executeTakeFirstOrThrow()).id;
    const ok = await exportCall(w.tokens.user, {
      format: 'ecotaxa',
      query: { category_id: -100, ipp_id: station, sorttype: 'asc' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-total-count']).toBe('3');
    const files = await unzip(ok.rawPayload);
    const tsv = files.get('ecotaxa_export.tsv')!.toString('utf8').trim().split('\n');
    expect(tsv[0]!.split('\t').slice(0, 8)).toEqual([
      'img_file_name',
      'object_id',
      'object_lat',
      'object_lon',
      'object_date',
      'object_time',
      'object_annotation_status',
      'object_annotation_category',
    ]);
    expect(tsv[1]!.split('\t').every((t) => t === '[t]' || t === '[f]')).toBe(true);
    const rows = tsv.slice(2).map((l) => l.split('\t'));
    expect(rows.map((r) => [r[0], r[4], r[5], r[6], r[7]])).toEqual([
      [`images/${ids[0]}.png`, '20261122', '070000', 'predicted', 'Copepod'],
      [`images/${ids[1]}.png`, '20261122', '070100', '', ''],
      [`images/${ids[2]}.png`, '20261122', '070200', 'predicted', 'Diatom_chain'],
    ]);
    for (const [i, id] of ids.entries()) expect(files.get(`images/${id}.png`)?.equals(images[i]!)).toBe(true);
  });
});
