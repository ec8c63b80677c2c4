/**
 * What one acknowledged ROI costs, stage by stage (issue 39): the ingest benchmark's 200 PWSSC images (read in place
 * from ../shared, never copied) each go through every piece of per-image work the server does before it acknowledges
 * an upload, timed one stage at a time in one thread: the type check and decode to pixels (one libvips call, whose header check
 * refuses an oversized image) and the thumbnail made from them, each
 * stage of the measured features (features.ts times its own stages when asked), the network's input, the network
 * (one view, as the product runs it), the similarity descriptor, the team model's label and the image's sha256.
 * The floor is the least any server must do with an upload, measured in the same run: its sha256. Passes alternate
 * image by image so that noise hits every stage alike; the first pass only warms the code.
 *
 *   npm run bench:stages                # 3 passes over the 200 images
 *   npm run bench:stages -- --passes 5 --images 400
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { inspectImage } from '../../apps/server/src/modules/rois/images.ts';
import { descriptorOf } from '../../apps/server/src/modules/recognition/descriptor.ts';
import { netInputOf } from '../../apps/server/src/modules/recognition/embedding/net-input.ts';
import { decodeImage, featuresOfPixels, greyOf, type StageTimes } from '../../apps/server/src/modules/recognition/features.ts';
import { trainTeamModel } from '../../apps/server/src/modules/recognition/team-model.ts';
import { backbone, BACKBONE_VIEWS, releaseBackbone } from '../../apps/server/src/modules/recognition/vector.ts';
import { loadImages } from './images.ts';

const { values: flags } = parseArgs({
  options: { passes: { type: 'string', default: '3' }, images: { type: 'string', default: '200' } },
});
const PASSES = Number(flags.passes);

const { images, source } = await loadImages(Number(flags.images));
const net = await backbone();

/** Each image's vector, for the team model the label stage uses (trained once, like a team's active model). */
const vectors: Float32Array[] = [];
for (const data of images) {
  const img = await decodeImage(data);
  const f = featuresOfPixels(img);
  const [learned] = await net.embed([netInputOf(img)], BACKBONE_VIEWS);
  const v = new Float32Array(f.values.length + learned!.length);
  v.set(f.values);
  v.set(learned!, f.values.length);
  vectors.push(v);
}
const model = trainTeamModel({ x: vectors.map((v) => [...v]), y: vectors.map((_, i) => i % 8) }, { seed: 1, memberWeight: 0.5 });

const ORDER = [
  'sha256 (floor)',
  'type, decode to pixels, thumbnail (resize, WebP)',
  'grey',
  'segment',
  'crop',
  'shape',
  'object statistics',
  'morphology',
  'small crop',
  'profiles',
  'core',
  'structure',
  'intensity and colour',
  'texture',
  'network input',
  'network (1 view)',
  'descriptor',
  'team model label',
];

const total: StageTimes = new Map();
let timedImages = 0;
for (let pass = 0; pass < PASSES + 1; pass++) {
  const stages: StageTimes = pass === 0 ? new Map() : total;
  const add = (stage: string, ms: number) => stages.set(stage, (stages.get(stage) ?? 0) + ms);
  for (let i = 0; i < images.length; i++) {
    const data = images[i]!;
    let t = performance.now();
    const lap = (stage: string) => {
      const now = performance.now();
      add(stage, now - t);
      t = now;
    };
    crypto.createHash('sha256').update(data).digest();
    lap('sha256 (floor)');
    const { pixels: img } = await inspectImage(data);
    lap('type, decode to pixels, thumbnail (resize, WebP)');
    const grey = greyOf(img);
    lap('grey');
    featuresOfPixels(img, { stages, grey });
    t = performance.now();
    const input = netInputOf(img, undefined, grey);
    lap('network input');
    await net.embed([input], BACKBONE_VIEWS);
    lap('network (1 view)');
    descriptorOf(vectors[i]!);
    lap('descriptor');
    model.predict(vectors[i]!, 3);
    lap('team model label');
    if (pass > 0) timedImages++;
  }
}
await releaseBackbone();

const per = (stage: string) => (total.get(stage) ?? 0) / timedImages;
const floor = per('sha256 (floor)');
const sum = ORDER.filter((s) => s !== 'sha256 (floor)').reduce((a, s) => a + per(s), 0);
const cpus = os.cpus().length;
console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus} CPUs, Node ${process.version}; ${source}, ${PASSES} timed passes (one thread)`,
);
console.log('');
console.log('| stage | ms per image | share | × floor |');
console.log('|---|---:|---:|---:|');
for (const stage of ORDER) {
  const ms = per(stage);
  console.log(
    `| ${stage} | ${ms.toFixed(3)} | ${stage.includes('floor') ? '—' : `${((100 * ms) / sum).toFixed(1)}%`} | ${(ms / floor).toFixed(0)} |`,
  );
}
const unknown = [...total.keys()].filter((s) => !ORDER.includes(s));
if (unknown.length) throw new Error(`stages the table does not list: ${unknown.join(', ')}`);
console.log(`| **all per-image work** | **${sum.toFixed(2)}** | 100% | ${(sum / floor).toFixed(0)} |`);
console.log('');
console.log(
  `One core at this cost acknowledges at most ${(1000 / sum).toFixed(0)} ROIs/s before any HTTP, database or file work; ${cpus} cores ${((cpus * 1000) / sum).toFixed(0)}.`,
);
