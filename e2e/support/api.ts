import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { pngOf } from '../../apps/server/test/helpers/device.ts';

/**
 * The console's API as the suites use it to prepare data (stations, images) and to read what the pages did, without
 * a browser: one copy of what several suites used to write for themselves.
 */

/** One API call (GET, or POST with a body) with a user token, or none; answers the envelope whatever its code. */
export async function envelopeOf<T>(
  baseUrl: string,
  token: string | null,
  path: string,
  body?: unknown,
): Promise<{ code: number; data: T }> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token === null ? {} : { 'x-token': token }), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: T };
}

/** One API call with a user token; throws unless the envelope says 1000. */
export async function call<T>(baseUrl: string, token: string, path: string, body?: unknown): Promise<T> {
  const envelope = await envelopeOf<T>(baseUrl, token, path, body);
  if (envelope.code !== 1000) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** Signs in through the API; answers the session token. */
export async function login(baseUrl: string, account: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/wyrbac/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account, password }),
  });
  const envelope = (await res.json()) as { code: number; data: { token: string } };
  if (envelope.code !== 1000) throw new Error(`login ${account}: ${JSON.stringify(envelope)}`);
  return envelope.data.token;
}

/** The demo team that --seed-demo creates. */
export async function demoTeam(baseUrl: string, token: string): Promise<{ id: number; name: string }> {
  const teams = await call<{ id: number; name: string }[]>(baseUrl, token, '/group/index?page=1&limit=100');
  const team = teams.find((each) => each.name.startsWith('Demo Team'));
  if (!team) throw new Error('no demo team');
  return team;
}

/**
 * Registers a station in the demo team (at 120.3° E 36.1° N in China, serial SN-<dev_id>, the default configuration
 * unless the fields say otherwise); answers the station and its device key.
 */
export async function registerStation(
  baseUrl: string,
  token: string,
  fields: { dev_id: string; site_name: string } & Record<string, unknown>,
): Promise<{ ipp: { id: number }; device_key: string }> {
  const team = await demoTeam(baseUrl, token);
  return call(baseUrl, token, '/ipp/save', {
    country: 'CN',
    longitude: 120.3,
    latitude: 36.1,
    group_id: team.id,
    serial_number: `SN-${fields.dev_id}`,
    config: DEFAULT_IPP_CONFIG,
    ...fields,
  });
}

/** Sends one image as the station's instrument does (device API); throws unless the server took it. */
export async function uploadRoi(
  baseUrl: string,
  deviceKey: string,
  roi: { capturedAt: number; labelIndex: number; confidence?: number; sizePx: number; png: Buffer },
) {
  const form = new FormData();
  form.set('captured_at', String(roi.capturedAt));
  form.set('label_index', String(roi.labelIndex));
  if (roi.confidence !== undefined) form.set('confidence', String(roi.confidence));
  form.set('size_px', String(roi.sizePx));
  form.set('file', new Blob([new Uint8Array(roi.png)], { type: 'image/png' }), 'roi.png');
  const res = await fetch(`${baseUrl}/api/device/rois`, {
    method: 'POST',
    headers: { 'x-device-key': deviceKey },
    body: form,
  });
  const answer = (await res.json()) as { code: number };
  if (answer.code !== 1000) throw new Error(`upload: ${JSON.stringify(answer)}`);
}

/**
 * A station of the demo team whose instrument sent `rois` images, one a minute back from now: the first `unlabelled`
 * (the newest in the grid) without a label and with confidence 0, as the instrument sends them; the rest labelled 1
 * with 0.9. Image i is pngOf(pngBase + i). Answers the station's id.
 */
export async function seedLabelledStation(
  baseUrl: string,
  token: string,
  station: { dev_id: string; site_name: string },
  counts: { rois: number; unlabelled: number; pngBase: number },
): Promise<number> {
  const saved = await registerStation(baseUrl, token, station);
  const now = Date.now();
  for (let i = 0; i < counts.rois; i++) {
    const labelled = i >= counts.unlabelled;
    await uploadRoi(baseUrl, saved.device_key, {
      capturedAt: now - (i + 1) * 60_000,
      labelIndex: labelled ? 1 : 0,
      confidence: labelled ? 0.9 : 0,
      sizePx: 1500 + i * 100,
      png: await pngOf(counts.pngBase + i),
    });
  }
  return saved.ipp.id;
}

/** A small PNG whose pixels encode `seed` (every seed another image): the server tests' own. */
export { pngOf };
