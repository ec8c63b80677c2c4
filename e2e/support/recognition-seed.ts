import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import yazl from 'yazl';
import { expect } from 'vitest';
import { shapePng, type Shape } from '../../apps/server/test/helpers/shapes.ts';

/** Human-identified examples per shape, imported as a zip of class folders; each shape stands for a system class. */
const EXAMPLES = 10;
export const FOLDER: Record<Shape, string> = { disc: 'Copepod', rod: 'Diatom_chain', ring: 'Dinoflagellate' };
/** Rods the instrument called copepods (label 1): re-identification must move them to 002Diatom_chain. */
export const MISLABELLED = 6;

/** One API call with a user token; throws unless the envelope says 1000. */
export async function call<T>(baseUrl: string, token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-token': token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; data: T };
  if (envelope.code !== 1000) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** A station in the demo team with human-identified shapes (the training set) and mislabelled rods from the device. */
export async function seed(baseUrl: string, token: string, devId: string, siteName: string, lang: string) {
  const teams = await call<{ id: number; name: string }[]>(baseUrl, token, '/group/index?page=1&limit=100');
  const team = teams.find((each) => each.name.startsWith('Demo Team'))!;
  const saved = await call<{ ipp: { id: number }; device_key: string }>(baseUrl, token, '/ipp/save', {
    dev_id: devId,
    site_name: siteName,
    country: 'CN',
    longitude: 120.3,
    latitude: 36.1,
    group_id: team.id,
    serial_number: `SN-${devId}`,
    config: DEFAULT_IPP_CONFIG,
  });
  const base = lang === 'en' ? 0 : 50_000;
  const zip = new yazl.ZipFile();
  for (const shape of Object.keys(FOLDER) as Shape[]) {
    for (let i = 0; i < EXAMPLES; i++)
      zip.addBuffer(await shapePng(shape, base + i * 3 + shape.length), `${FOLDER[shape]}/${i}.png`);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(Buffer.concat(chunks))], { type: 'application/zip' }), 'shapes.zip');
  const imported = await fetch(`${baseUrl}/api/roi/import?dev_id=${devId}&as=hi`, {
    method: 'POST',
    headers: { 'x-token': token },
    body: form,
  });
  expect(((await imported.json()) as { data: { imported: number } }).data.imported).toBe(3 * EXAMPLES);
  const now = Date.now();
  for (let i = 0; i < MISLABELLED; i++) {
    const upload = new FormData();
    upload.set('captured_at', String(now - (i + 1) * 60_000));
    upload.set('label_index', '1');
    upload.set('confidence', '0.9');
    upload.set('size_px', '120');
    upload.set('file', new Blob([new Uint8Array(await shapePng('rod', base + 900 + i))], { type: 'image/png' }), 'roi.png');
    const res = await fetch(`${baseUrl}/api/device/rois`, {
      method: 'POST',
      headers: { 'x-device-key': saved.device_key },
      body: upload,
    });
    expect(((await res.json()) as { code: number }).code).toBe(1000);
  }
  const classes = await call<{ id: number; label_index: number | null }[]>(baseUrl, token, '/tool/sys-init');
  return {
    copepod: classes.find((c) => c.label_index === 1)!.id,
    diatoms: classes.find((c) => c.label_index === 2)!.id,
    deviceKey: saved.device_key,
    ippId: saved.ipp.id,
  };
}
