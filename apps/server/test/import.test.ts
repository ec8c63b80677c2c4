import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TreeNode } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { importFolder, captureTimeOf, ImportError } from '../src/modules/transfer/import-folder.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, roiMultipart } from './helpers/device.ts';

/** Real labelled plankton images (MIT), read in place: never copied into the repository. */
const PWSSC = path.resolve(import.meta.dirname, '../../../../shared/data/pwssc-spc');
const havePwssc = fs.existsSync(PWSSC);
if (!havePwssc) console.warn(`\n*** import test uses synthetic images only: ${PWSSC} is missing\n`);

describe.each(dialects)('folder-per-class import on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let dir: string;
  let a1: { id: number };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-import-'));
    // Two real classes (when the data set is here), a folder already named by the rule, and a broken file.
    for (const cls of havePwssc ? ['Copepod', 'Oithona'] : []) {
      fs.mkdirSync(path.join(dir, cls));
      for (const f of fs.readdirSync(path.join(PWSSC, cls)).slice(0, 3))
        fs.copyFileSync(path.join(PWSSC, cls, f), path.join(dir, cls, f));
    }
    fs.mkdirSync(path.join(dir, '140Noctiluca'));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'a.png'), await pngOf(1));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'b.png'), await pngOf(2));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'broken.png'), Buffer.from('not an image'));
    fs.writeFileSync(path.join(dir, '140Noctiluca', 'notes.txt'), 'ignored');
  });
  afterEach(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await env.close();
  });

  it('imports images as HI ROIs of their class, files them in the team library, and is safe to re-run', async () => {
    const run = () => importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'A1', as: 'reference' });
    const progress: number[] = [];
    const report = await importFolder(env.db, env.app.rois, () => env.clock.now, {
      dir,
      devId: 'A1',
      as: 'reference',
      onProgress: (done) => progress.push(done),
    });
    const real = havePwssc ? 6 : 0;
    expect(report.imported).toBe(real + 2);
    expect(report.failed.map((f) => f.file)).toEqual([path.join('140Noctiluca', 'broken.png')]);
    expect(progress.at(-1)).toBe(real + 3);
    expect(report.classes.find((c) => c.folder === '140Noctiluca')).toMatchObject({ class: '140Noctiluca', created: true });
    if (havePwssc) {
      expect(report.classes.find((c) => c.folder === 'Copepod')).toMatchObject({ class: '001Copepod', created: false });
      expect(report.classes.find((c) => c.folder === 'Oithona')).toMatchObject({ class: '100Oithona', created: true });
    }
    const tree = body(await call(env, w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}`))
      .data as TreeNode[];
    const hi = tree.find((n) => n.code === 't:hi')!;
    expect(hi.count).toBe(real + 2);
    expect(hi.children.find((c) => c.title === '140Noctiluca')?.count).toBe(2);
    const library = body(await call(env, w.tokens.user, 'GET', '/api/roi-index/index?category_id=-2')).data as TreeNode[];
    expect(library.map((n) => [n.title, n.count])).toContainEqual(['140Noctiluca', 2]);
    // Capture times come from the SPC file names.
    if (havePwssc) {
      const named = ['Copepod', 'Oithona']
        .flatMap((c) => fs.readdirSync(path.join(dir, c)))
        .map((f) => /-(1\d{9})-/.exec(f)?.[1])
        .filter((v): v is string => v !== undefined)
        .map((v) => Number(v) * 1000);
      const times = (await env.db.kysely.selectFrom('rois').select('roi_time').where('hi', '=', 1).execute()).map((t) =>
        Number(t.roi_time),
      );
      expect(named.length).toBeGreaterThan(0);
      for (const t of named) expect(times).toContain(t);
    }
    const again = await run();
    expect([again.imported, again.duplicates]).toEqual([0, real + 2]);
    expect(
      (
        body(await call(env, w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${a1.id}`)).data as TreeNode[]
      ).find((n) => n.code === 't:hi')?.count,
    ).toBe(real + 2);
    await expect(importFolder(env.db, env.app.rois, () => env.clock.now, { dir, devId: 'nope', as: 'hi' })).rejects.toThrow(
      ImportError,
    );
  });

  it('reads capture times from file names', () => {
    expect(captureTimeOf('SPC-PWSSC-1473068024-000631-046-1284-2142-324-276.png', 5)).toBe(1473068024000);
    expect(captureTimeOf('plankton_01.png', 1234.4)).toBe(1234);
  });
});

/** A zip made in memory: entries name → bytes. */
function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

describe.each(dialects)('zip import from the console on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
  });
  afterEach(() => env.close());

  const upload = (token: string | undefined, query: string, zip: Buffer, lang = 'en') => {
    const { payload, headers } = roiMultipart({}, zip);
    return env.app.inject({
      method: 'POST',
      url: `/api/roi/import?${query}`,
      payload,
      headers: { ...headers, 'x-lang': lang, 'x-token': token ?? '' },
    });
  };

  it('imports a zip of class folders (inside one top folder) for administrators of the station team', async () => {
    const zip = await zipOf({
      'set/141Salpa/a.png': await pngOf(11),
      'set/141Salpa/b.png': await pngOf(12),
      'set/Copepod/SPC-X-1473068024-1.png': await pngOf(13),
      '__MACOSX/set/._a.png': Buffer.from('junk'),
    });
    const res = body(await upload(w.tokens.ownAdmin, 'dev_id=A1&as=reference', zip));
    expect(res.code).toBe(1000);
    const report = res.data as { imported: number; classes: { folder: string; class: string }[]; failed: unknown[] };
    expect(report.imported).toBe(3);
    expect(report.failed).toEqual([]);
    expect(report.classes.map((c) => [c.folder, c.class])).toEqual([
      ['141Salpa', '141Salpa'],
      ['Copepod', '001Copepod'],
    ]);
    const library = body(await call(env, w.tokens.user, 'GET', '/api/roi-index/index?category_id=-2')).data as TreeNode[];
    expect(library.map((n) => [n.title, n.count])).toEqual([
      ['001Copepod', 1],
      ['141Salpa', 2],
    ]);
  });

  it('refuses users, other teams, non-zips and entries that would escape the folder, importing nothing', async () => {
    const zip = await zipOf({ 'AA/x.png': await pngOf(21) });
    expect(body(await upload(w.tokens.user, 'dev_id=A1', zip)).code).toBe(1011);
    expect(body(await upload(w.tokens.ownAdmin, 'dev_id=B1', zip)).code).toBe(1002);
    const notZip = body(await upload(w.tokens.ownAdmin, 'dev_id=A1', Buffer.from('hello'), 'zh'));
    expect(notZip.code).toBe(1002);
    expect(notZip.msg).toMatch(/^无法导入该压缩包/);
    // "AA/" becomes "../" in both the local and the central header: a zip-slip entry.
    const evil = Buffer.from(zip.toString('latin1').replaceAll('AA/x.png', '../x.png'), 'latin1');
    const slip = body(await upload(w.tokens.ownAdmin, 'dev_id=A1', evil));
    // yauzl refuses the name itself ("invalid relative path"); our own check stands behind it.
    expect(slip.code).toBe(1002);
    expect(slip.msg).toMatch(/^This zip cannot be imported: .*\.\.\/x\.png$/);
    expect(await env.db.kysely.selectFrom('rois').select('id').execute()).toEqual([]);
  });
});
