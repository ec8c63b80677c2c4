import { buildTestApp } from '../../apps/server/test/helpers/build.ts';
import { buildWorld } from '../../apps/server/test/helpers/actors.ts';
import { registerIpp } from '../../apps/server/test/helpers/device.ts';
import { loadImages, roiMultipart, variant } from '../src/images.ts';

const env = await buildTestApp('sqlite', { config: { JOB_WORKER: 'on', FEATURE_WORKERS: 1 } as never });
const w = await buildWorld(env);
const { key, id } = await registerIpp(env, w.tokens.superadmin, w.teamA, 'LEAK1');
const { images } = await loadImages(50);
const gc = (globalThis as { gc?: () => void }).gc!;
const heap = async () => {
  await new Promise((r) => setTimeout(r, 200));
  gc();
  gc();
  return (process.memoryUsage().heapUsed / 1048576).toFixed(1);
};
let n = 0;
const ingest = async (count: number) => {
  for (let i = 0; i < count; i++) {
    n++;
    const { body: payload, contentType } = roiMultipart({ captured_at: Date.UTC(2026, 10, 22, 7, 0, 0) - n * 1000, size_px: 100, label_index: 1 }, variant(images[n % images.length]!, n));
    const res = await env.app.inject({ method: 'POST', url: '/api/device/rois', payload, headers: { 'content-type': contentType, 'x-device-key': key } });
    if (res.json().code !== 1000) throw new Error(res.body);
  }
};
const browse = async (count: number) => {
  for (let i = 0; i < count; i++) {
    const urls = [`/api/roi/index?category_id=-100&ipp_id=${id}&limit=200&page=${1 + (i % 5)}`, `/api/roi-index/index?category_id=-100&ipp_id=${id}`, '/api/views/roi24', '/api/ipp/index', '/api/views/roi30?tz=480', `/api/roi/get-site-roi?dev_id=LEAK1&period=${['24h','7d','1m'][i%3]}&tz=480`];
    const res = await env.app.inject({ method: 'GET', url: urls[i % urls.length]!, headers: { 'x-token': w.tokens.user! } });
    if (res.json().code !== 1000) throw new Error(res.body);
  }
};
console.log('start', await heap());
for (let round = 1; round <= 2; round++) {
  await ingest(1500);
  console.log(`after ingest round ${round} (${n} ROIs)`, await heap());
}
for (let round = 1; round <= 3; round++) {
  await browse(3000);
  await ingest(500);
  console.log(`after browse round ${round}`, await heap());
}
await env.close();
