import { readdirSync, readFileSync } from 'node:fs';
import { decodeImage, featuresOfPixels } from '/work/main/apps/server/src/modules/recognition/features.ts';
import { descriptorOf } from '/work/main/apps/server/src/modules/recognition/descriptor.ts';
import { inspectImage } from '/work/main/apps/server/src/modules/rois/images.ts';
const root = '/work/shared/data/pwssc-spc';
const files: Buffer[] = [];
for (const d of readdirSync(root, { withFileTypes: true })) if (d.isDirectory()) for (const f of readdirSync(`${root}/${d.name}`).slice(0, 10)) files.push(readFileSync(`${root}/${d.name}/${f}`));
let tDec = 0, tFeat = 0, tDesc = 0, tInspect = 0;
for (let r = 0; r < 2; r++) for (const b of files) {
  let t = performance.now(); await inspectImage(b); tInspect += performance.now() - t;
  t = performance.now(); const img = await decodeImage(b); tDec += performance.now() - t;
  t = performance.now(); const f = featuresOfPixels(img); tFeat += performance.now() - t;
  t = performance.now(); descriptorOf(f.values); tDesc += performance.now() - t;
}
const n = files.length * 2;
console.log({ n, inspect: tInspect / n, decode: tDec / n, features: tFeat / n, desc: tDesc / n });
