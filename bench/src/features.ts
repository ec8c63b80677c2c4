/**
 * Recognition benchmark: measuring an ROI (decode + features, apps/server/src/modules/recognition/features.ts)
 * against the floor of decoding the same image with sharp alone, over the real Scripps Plankton Camera images of
 * ../shared/data/pwssc-spc (32-2808 px wide). Each image is timed several times and its median kept; the figures
 * are the medians over images, overall and by image size, and their ratio to the floor. It also times the
 * classifier: a 300-tree forest trained on those images, classifying 100,000 feature vectors with predictMany.
 *
 *   node --import tsx bench/src/features.ts            # every image, 5 runs each
 *   node --import tsx bench/src/features.ts --quick    # every 4th image, 3 runs each, 20,000 vectors
 *   node --import tsx bench/src/features.ts --dir <folder-per-class image set>
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { trainClassifier } from '../../apps/server/src/modules/recognition/classifier/train-forest.ts';
import { decodeImage, featuresOfImage, featuresOfPixels } from '../../apps/server/src/modules/recognition/features.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_DIR = path.resolve(HERE, '../../../shared/data/pwssc-spc');
const IMAGE = /\.(png|jpe?g|webp|tiff?)$/i;

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
}
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** Median of `runs` timings of `fn` after one warm-up call. */
async function time(fn: () => Promise<unknown>, runs: number) {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function main(argv = process.argv.slice(2)) {
  const { values: flags } = parseArgs({
    args: argv,
    options: { quick: { type: 'boolean', default: false }, dir: { type: 'string' }, runs: { type: 'string' } },
  });
  const dir = flags.dir ? path.resolve(flags.dir) : DEFAULT_DIR;
  const runs = Number(flags.runs ?? (flags.quick ? 3 : 5));
  if (!fs.existsSync(dir)) throw new Error(`no image set at ${dir} (--dir <folder-per-class images>)`);
  const files: { file: string; cls: string }[] = [];
  for (const cls of fs.readdirSync(dir).sort()) {
    const sub = path.join(dir, cls);
    if (!fs.statSync(sub).isDirectory()) continue;
    for (const name of fs.readdirSync(sub).sort()) if (IMAGE.test(name)) files.push({ file: path.join(sub, name), cls });
  }
  const chosen = flags.quick ? files.filter((_, i) => i % 4 === 0) : files;
  console.log(
    `Features vs decode: ${chosen.length} images of ${dir}, ${runs} runs each (median); ${os.cpus().length} CPUs, Node ${process.version}`,
  );

  const rows: { pixels: number; decode: number; total: number; features: number }[] = [];
  const x: Float32Array[] = [];
  const y: string[] = [];
  for (const [i, { file, cls }] of chosen.entries()) {
    const data = fs.readFileSync(file);
    const pixels = await decodeImage(data);
    const decode = await time(() => decodeImage(data), runs);
    const total = await time(() => featuresOfImage(data), runs);
    const features = await time(async () => featuresOfPixels(pixels), runs);
    rows.push({ pixels: pixels.width * pixels.height, decode, total, features });
    x.push(featuresOfPixels(pixels).values);
    y.push(cls);
    if ((i + 1) % 100 === 0) process.stderr.write(`${i + 1}/${chosen.length}\n`);
  }

  const buckets: [string, (p: number) => boolean][] = [
    ['all images', () => true],
    ['< 100×100 px', (p) => p < 10_000],
    ['100×100 – 300×300 px', (p) => p >= 10_000 && p < 90_000],
    ['300×300 – 1000×1000 px', (p) => p >= 90_000 && p < 1_000_000],
    ['≥ 1000×1000 px', (p) => p >= 1_000_000],
  ];
  const table = [
    '| images | n | decode (floor) | decode + features | features alone | ratio to floor |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [label, keep] of buckets) {
    const sel = rows.filter((r) => keep(r.pixels));
    if (sel.length === 0) continue;
    const decode = median(sel.map((r) => r.decode));
    const total = median(sel.map((r) => r.total));
    const features = median(sel.map((r) => r.features));
    table.push(`| ${label} | ${sel.length} | ${ms(decode)} | ${ms(total)} | ${ms(features)} | ${(total / decode).toFixed(2)} |`);
  }
  console.log(`\n${table.join('\n')}\n`);

  // The classifier on the same vectors.
  const classes = [...new Set(y)].sort();
  const labels = y.map((c) => classes.indexOf(c));
  const t0 = performance.now();
  const model = trainClassifier({ x, y: labels }, { trees: 300, seed: 1 });
  const trainMs = performance.now() - t0;
  const count = flags.quick ? 20_000 : 100_000;
  const batch = Array.from({ length: count }, (_, i) => x[i % x.length]!);
  model.predictMany(batch.slice(0, 1000));
  const t1 = performance.now();
  model.predictMany(batch, 3);
  const predictMs = performance.now() - t1;
  console.log(
    `Classifier: 300 trees trained on ${x.length} images in ${(trainMs / 1000).toFixed(1)} s; predictMany of ` +
      `${count.toLocaleString('en')} vectors ${(predictMs / 1000).toFixed(2)} s = ${((predictMs * 1000) / count).toFixed(1)} µs per ROI.`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
