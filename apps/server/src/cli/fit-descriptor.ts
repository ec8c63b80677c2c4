/**
 * npm run fit:descriptor -- <image dir> [--out file]: fits the similarity descriptor's basis (docs/recognition.md
 * "Similarity") — feature means and scales, the 32 leading principal components of the standardised features and
 * one quantisation step — on every image under <dir>, and writes descriptor-basis.json. Run again when
 * VECTOR_VERSION changes; the server refuses a basis fitted for other features.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { SIM_DIMS, clampZ } from '../modules/recognition/descriptor.ts';
import { VECTOR_VERSION, vectorOfImage } from '../modules/recognition/vector.ts';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--'));
const outIndex = args.indexOf('--out');
const out =
  outIndex >= 0 ? args[outIndex + 1]! : new URL('../modules/recognition/descriptor-basis.json', import.meta.url).pathname;
if (!dir) {
  console.error('usage: npm run fit:descriptor -- <image dir> [--out file]');
  process.exit(2);
}

function imagesUnder(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(root, e.name);
    if (e.isDirectory()) return imagesUnder(p);
    return /\.(png|jpe?g|webp|tiff?)$/i.test(e.name) ? [p] : [];
  });
}

const files = imagesUnder(path.resolve(dir));
const rows: number[][] = [];
for (const [i, file] of files.entries()) {
  rows.push(Array.from((await vectorOfImage(fs.readFileSync(file))).values));
  if (i % 100 === 0) process.stderr.write(`\rfeatures ${i + 1}/${files.length}`);
}
process.stderr.write(`\rfeatures ${files.length}/${files.length}\n`);
const d = rows[0]!.length;
const mean = Array.from({ length: d }, (_, j) => rows.reduce((a, r) => a + r[j]!, 0) / rows.length);
const scale = Array.from({ length: d }, (_, j) => {
  const sd = Math.sqrt(rows.reduce((a, r) => a + (r[j]! - mean[j]!) ** 2, 0) / rows.length);
  // A feature (nearly) constant on the fitting set must not turn small differences elsewhere into huge ones.
  return Math.max(sd, 1e-3 * (Math.abs(mean[j]!) + 1));
});
const z = new Matrix(rows.map((r) => r.map((v, j) => clampZ((v - mean[j]!) / scale[j]!))));
const covariance = z.transpose().mmul(z).div(rows.length);
const evd = new EigenvalueDecomposition(covariance, { assumeSymmetric: true });
const order = evd.realEigenvalues.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
const components = order.slice(0, SIM_DIMS).map(([, i]) => evd.eigenvectorMatrix.getColumn(i));
// One step for every dimension (so distances keep their proportions): ±6 standard deviations of the first fills int8.
const step = (6 * Math.sqrt(Math.max(order[0]![0], 1e-9))) / 127;
const explained = order.slice(0, SIM_DIMS).reduce((a, [v]) => a + v, 0) / order.reduce((a, [v]) => a + Math.max(v, 0), 0);
const round = (v: number) => Math.round(v * 1e6) / 1e6;
fs.writeFileSync(
  out,
  JSON.stringify({
    feature_version: VECTOR_VERSION,
    fitted_on: `${files.length} images`,
    explained_variance: round(explained),
    mean: mean.map(round),
    scale: scale.map(round),
    components: components.map((c) => c.map(round)),
    step: round(step),
  }) + '\n',
);
console.log(
  `${out}: ${SIM_DIMS} of ${d} dimensions, ${(explained * 100).toFixed(1)}% of the variance, from ${files.length} images`,
);
