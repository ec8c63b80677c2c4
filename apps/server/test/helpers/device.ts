import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import sharp from 'sharp';
import { call } from './actors.ts';
import { body, type TestEnv } from './build.ts';

/** Registers an instrument through the console API; answers its id and the device key shown once. */
export async function registerIpp(env: TestEnv, token: string | undefined, groupId: number, devId: string, over: object = {}) {
  const res = body(
    await call(env, token, 'POST', '/api/ipp/save', {
      dev_id: devId,
      site_name: `Site ${devId}`,
      country: 'CN',
      longitude: 121.5,
      latitude: 36.1,
      group_id: groupId,
      serial_number: `SN-${devId}`,
      config: DEFAULT_IPP_CONFIG,
      ...over,
    }),
  );
  if (res.code !== 1000) throw new Error(`registering ${devId} failed: ${JSON.stringify(res)}`);
  const data = res.data as { ipp: { id: number }; device_key: string };
  return { id: data.ipp.id, key: data.device_key };
}

export function telemetry(env: TestEnv, key: string | undefined, sample: object, lang = 'en') {
  return env.app.inject({
    method: 'POST',
    url: '/api/device/telemetry',
    headers: { 'x-lang': lang, ...(key ? { 'x-device-key': key } : {}) },
    payload: sample,
  });
}

/** A small PNG whose pixels encode `seed`, so every seed is a different image. */
export async function pngOf(seed: number, size = 24): Promise<Buffer> {
  const raw = Buffer.alloc(size * size * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (seed * 7919 + i * 31 + ((seed >> (i % 24)) & 0xff)) & 0xff;
  raw.writeUInt32BE(seed >>> 0, 0);
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

/** multipart/form-data with text fields and one file part. */
export function roiMultipart(fields: Record<string, string | number>, file: Buffer | null, fileField = 'file') {
  const boundary = '----ipp-roi-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="roi.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function uploadRoi(
  env: TestEnv,
  key: string | undefined,
  fields: Record<string, string | number>,
  file: Buffer | null,
  lang = 'en',
) {
  const { payload, headers } = roiMultipart(fields, file);
  return env.app.inject({
    method: 'POST',
    url: '/api/device/rois',
    payload,
    headers: { ...headers, 'x-lang': lang, ...(key ? { 'x-device-key': key } : {}) },
  });
}
