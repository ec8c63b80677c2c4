import { expect } from 'vitest';
import { shapePng, type Shape } from '../../apps/server/test/helpers/shapes.ts';
import { zipOf } from '../../apps/server/test/helpers/zip.ts';
import { call, registerStation, uploadRoi } from './api.ts';

/** Human-identified examples per shape, imported as a zip of class folders; each shape stands for a system class. */
const EXAMPLES = 10;
export const FOLDER: Record<Shape, string> = { disc: 'Copepod', rod: 'Diatom_chain', ring: 'Dinoflagellate' };
/** Rods the instrument called copepods (label 1): re-identification must move them to 002Diatom_chain. */
export const MISLABELLED = 6;

/** A station in the demo team with human-identified shapes (the training set) and mislabelled rods from the device. */
export async function seed(baseUrl: string, token: string, devId: string, siteName: string, lang: string) {
  const saved = await registerStation(baseUrl, token, { dev_id: devId, site_name: siteName });
  const base = lang === 'en' ? 0 : 50_000;
  const examples = new Map<string, Buffer>();
  for (const shape of Object.keys(FOLDER) as Shape[]) {
    for (let i = 0; i < EXAMPLES; i++)
      examples.set(`${FOLDER[shape]}/${i}.png`, await shapePng(shape, base + i * 3 + shape.length));
  }
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(await zipOf(examples))], { type: 'application/zip' }), 'shapes.zip');
  const imported = await fetch(`${baseUrl}/api/roi/import?dev_id=${devId}&as=hi`, {
    method: 'POST',
    headers: { 'x-token': token },
    body: form,
  });
  expect(((await imported.json()) as { data: { imported: number } }).data.imported).toBe(3 * EXAMPLES);
  const now = Date.now();
  for (let i = 0; i < MISLABELLED; i++) {
    await uploadRoi(baseUrl, saved.device_key, {
      capturedAt: now - (i + 1) * 60_000,
      labelIndex: 1,
      confidence: 0.9,
      sizePx: 120,
      png: await shapePng('rod', base + 900 + i),
    });
  }
  const classes = await call<{ id: number; label_index: number | null }[]>(baseUrl, token, '/tool/sys-init');
  return {
    copepod: classes.find((c) => c.label_index === 1)!.id,
    diatoms: classes.find((c) => c.label_index === 2)!.id,
    deviceKey: saved.device_key,
    ippId: saved.ipp.id,
  };
}
