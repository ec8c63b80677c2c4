import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { mulberry32 } from '../lib/random.ts';
import { decodeImage, DEFAULT_THRESHOLD, featuresOfPixels } from '../modules/recognition/features.ts';
import { vectorOf } from '../modules/recognition/vector.ts';
import { trainAndEvaluate } from '../modules/recognition/training.ts';
import { type TeamModel, loadPredictor } from '../modules/recognition/team-model.ts';
import { correctedCounts, emPriors, emCounts, gamma } from '../modules/recognition/corrected-counts.ts';
import { scan, type Images } from './image-sets.ts';
import { hashPosition, loadHeldOut, NATURAL_HOLDOUT } from './held-out.ts';

const USAGE = `usage: npm run eval:counts -- [--features measured|vector] [--batches 100] [--seed 42] [--report <file>]

Measures how well the corrected counts (docs/recognition.md, "Corrected counts") recover the true class counts of
batches whose class mix differs from the training mix, as a station and period does. A team model is trained on the
shared images (../shared/data/pwssc-spc and pwssc-spc-more) less every held-out image; test batches are drawn from
the held-out images (the frozen balanced list and the natural-mix hash range), each from 5-15 classes with
Dirichlet proportions, 150-600 images. For raw model counts, adjusted classify-and-count (the confusion matrix) and
EM prior adaptation (Saerens, Latinne & Decaestecker 2002) it reports the mean absolute error of class proportions,
how often the 95% interval holds the true count, and the accuracy of labels adapted to each batch's estimated mix.`;

interface Sample {
  sha: string;
  label: string;
  labels: string[];
  values: Float32Array;
}

async function measure(images: Images, withEmbedding: boolean, label: string): Promise<Sample[]> {
  const out: Sample[] = [];
  let done = 0;
  for (const [sha, image] of images) {
    const pixels = await decodeImage(image.bytes);
    const { values } = withEmbedding
      ? await vectorOf(pixels, { threshold: DEFAULT_THRESHOLD })
      : featuresOfPixels(pixels, { threshold: DEFAULT_THRESHOLD });
    const labels = [...image.labels];
    out.push({ sha, label: labels[0]!, labels, values });
    if (++done % 2000 === 0 || done === images.size) process.stderr.write(`${label}: features ${done}/${images.size}\n`);
  }
  return out;
}

/** Dirichlet(α…) by normalised gamma draws. */
function dirichlet(random: () => number, alpha: number, k: number): number[] {
  const g = Array.from({ length: k }, () => gamma(random, alpha));
  const s = g.reduce((a, v) => a + v, 0);
  return g.map((v) => v / s);
}

interface MethodResult {
  /** Per class: estimate, interval (null: the method gives none). */
  estimate: number[];
  low: number[] | null;
  high: number[] | null;
}

interface Tally {
  absError: number;
  cells: number;
  covered: number;
  intervals: number;
  coveredPresent: number;
  present: number;
  width: number;
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

async function main(): Promise<number> {
  const args = parseArgs({
    args: process.argv.slice(2),
    options: {
      features: { type: 'string', default: 'vector' },
      batches: { type: 'string', default: '100' },
      seed: { type: 'string', default: '42' },
      report: { type: 'string', default: 'counts-report.md' },
      help: { type: 'boolean' },
    },
  });
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const batches = Number(args.values.batches);
  const seed = Number(args.values.seed);
  if (!['measured', 'vector'].includes(args.values.features!) || !(batches >= 1)) {
    console.error(USAGE);
    return 2;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const shared = path.resolve(import.meta.dirname, '../../../../../shared/data');
  const first = scan(path.join(shared, 'pwssc-spc'));
  const more = scan(path.join(shared, 'pwssc-spc-more'));
  const frozen = new Set(loadHeldOut().images.map((i) => i.sha256));
  const train: Images = new Map();
  const pool: Images = new Map();
  for (const [sha, image] of [...first, ...more]) {
    if (train.has(sha) || pool.has(sha)) continue;
    const heldOut = frozen.has(sha) || (more.has(sha) && !first.has(sha) && hashPosition(sha) < NATURAL_HOLDOUT);
    (heldOut ? pool : train).set(sha, image);
  }
  const withEmbedding = args.values.features === 'vector';
  const trainSamples = await measure(train, withEmbedding, 'train');
  const poolSamples = await measure(pool, withEmbedding, 'held-out');
  const names = [...new Set([...trainSamples, ...poolSamples].map((s) => s.label))].sort();
  const id = new Map(names.map((n, i) => [n, i + 1]));
  process.stderr.write(`training a team model on ${trainSamples.length} images (5-fold cross-validation first)\n`);
  const trained = trainAndEvaluate(
    {
      x: trainSamples.map((s) => [...s.values]),
      y: trainSamples.map((s) => id.get(s.label)!),
      accepted: trainSamples.map((s) => s.labels.filter((l) => id.has(l)).map((l) => id.get(l)!)),
      seed,
    },
    () => {},
  );
  const model = loadPredictor(trained.model) as TeamModel;
  const matrix = trained.report!.matrix!;
  const classes = matrix.classes;
  const K = classes.length;
  const proba = model.probaMany(poolSamples.map((s) => s.values));
  const truthOf = poolSamples.map((s) => classes.indexOf(id.get(s.label)!));
  const argmax = (p: ArrayLike<number>) => {
    let b = 0;
    for (let j = 1; j < p.length; j++) if (p[j]! > p[b]!) b = j;
    return b;
  };
  const predicted = proba.map(argmax);
  /** The stored AI label keeps the top 3 (ai_labels.top): the rest of the mass spread evenly. */
  const top3 = proba.map((p) => {
    const order = [...p.keys()].sort((a, b) => p[b]! - p[a]!);
    const q = new Float64Array(K);
    let kept = 0;
    for (const j of order.slice(0, 3)) kept += q[j] = Math.round(p[j]! * 1000) / 1000;
    const rest = Math.max(0, 1 - kept) / (K - 3);
    for (const j of order.slice(3)) q[j] = rest;
    return q;
  });
  const byClass = classes.map((_, k) => truthOf.flatMap((t, i) => (t === k ? [i] : [])));

  const methods: Record<string, (ids: number[], batch: number) => MethodResult> = {
    'raw model counts': (ids) => {
      const est = new Array<number>(K).fill(0);
      for (const i of ids) est[predicted[i]!]!++;
      return { estimate: est, low: null, high: null };
    },
    'adjusted classify-and-count (before issue 38: ½ per confusion cell)': (ids, b) => {
      const observed = new Map<number, number>();
      for (const i of ids) observed.set(classes[predicted[i]!]!, (observed.get(classes[predicted[i]!]!) ?? 0) + 1);
      const out = correctedCounts(matrix, observed, { seed: b, pseudoCount: 0.5 });
      return { estimate: out.map((c) => c.corrected), low: out.map((c) => c.low), high: out.map((c) => c.high) };
    },
    'adjusted classify-and-count (½ per confusion row)': (ids, b) => {
      const observed = new Map<number, number>();
      for (const i of ids) observed.set(classes[predicted[i]!]!, (observed.get(classes[predicted[i]!]!) ?? 0) + 1);
      const out = correctedCounts(matrix, observed, { seed: b });
      return { estimate: out.map((c) => c.corrected), low: out.map((c) => c.low), high: out.map((c) => c.high) };
    },
    'labels adapted to the batch (EM prior), counted': (ids) => {
      const prior = emPriors(ids.map((i) => proba[i]!));
      const est = new Array<number>(K).fill(0);
      for (const i of ids) est[argmax(proba[i]!.map((v, k) => v * prior[k]!))]!++;
      return { estimate: est, low: null, high: null };
    },
    'EM prior adaptation (all class probabilities)': (ids, b) =>
      emResult(
        ids.map((i) => proba[i]!),
        b,
      ),
    'EM prior adaptation (top 3 stored per ROI)': (ids, b) =>
      emResult(
        ids.map((i) => top3[i]!),
        b,
      ),
  };
  function emResult(posteriors: Float64Array[], b: number): MethodResult {
    const out = emCounts(posteriors, { seed: b });
    return { estimate: out.map((c) => c.corrected), low: out.map((c) => c.low), high: out.map((c) => c.high) };
  }
  const tallies = new Map<string, Tally>(
    Object.keys(methods).map((m) => [
      m,
      { absError: 0, cells: 0, covered: 0, intervals: 0, coveredPresent: 0, present: 0, width: 0 },
    ]),
  );
  const adapted = { plainRight: 0, adaptedRight: 0, n: 0, plainBalanced: 0, adaptedBalanced: 0 };
  const random = mulberry32(seed);
  let images = 0;
  for (let b = 0; b < batches; b++) {
    // A station and period: 5-15 of the classes with held-out images, Dirichlet(1) proportions, 150-600 images.
    const candidates = classes.map((_, k) => k).filter((k) => byClass[k]!.length > 0);
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
    }
    const present = candidates.slice(0, 5 + Math.floor(random() * 11));
    const share = dirichlet(random, 1, present.length);
    const size = 150 + Math.floor(random() * 451);
    const ids: number[] = [];
    present.forEach((k, j) => {
      const members = [...byClass[k]!];
      const want = Math.min(members.length, Math.round(share[j]! * size));
      for (let n = 0; n < want; n++) {
        const r = n + Math.floor(random() * (members.length - n));
        [members[n], members[r]] = [members[r]!, members[n]!];
        ids.push(members[n]!);
      }
    });
    if (ids.length === 0) continue;
    images += ids.length;
    const truth = new Array<number>(K).fill(0);
    for (const i of ids) truth[truthOf[i]!]!++;
    for (const [name, method] of Object.entries(methods)) {
      const r = method(ids, b);
      const t = tallies.get(name)!;
      for (let k = 0; k < K; k++) {
        t.absError += Math.abs(r.estimate[k]! / ids.length - truth[k]! / ids.length);
        t.cells++;
        if (r.low && r.high) {
          const inside = truth[k]! >= r.low[k]! - 1e-9 && truth[k]! <= r.high[k]! + 1e-9;
          t.intervals++;
          t.covered += inside ? 1 : 0;
          t.width += r.high[k]! - r.low[k]!;
          if (truth[k]! > 0) {
            t.present++;
            t.coveredPresent += inside ? 1 : 0;
          }
        }
      }
    }
    // Labels adapted to the batch's estimated mix: argmax of p(c|x)·π̂(c) (the model's own scores are balanced).
    const prior = emPriors(ids.map((i) => proba[i]!));
    const recall = { plain: new Map<number, [number, number]>(), adapted: new Map<number, [number, number]>() };
    for (const i of ids) {
      const p = proba[i]!;
      const q = p.map((v, k) => v * prior[k]!);
      const t = truthOf[i]!;
      const plainOk = predicted[i] === t ? 1 : 0;
      const adaptedOk = argmax(q) === t ? 1 : 0;
      adapted.plainRight += plainOk;
      adapted.adaptedRight += adaptedOk;
      adapted.n++;
      for (const [m, ok] of [
        [recall.plain, plainOk],
        [recall.adapted, adaptedOk],
      ] as const) {
        const cur = m.get(t) ?? [0, 0];
        m.set(t, [cur[0] + ok, cur[1] + 1]);
      }
    }
    const mean = (m: Map<number, [number, number]>) => [...m.values()].reduce((a, [r, n]) => a + r / n, 0) / m.size;
    adapted.plainBalanced += mean(recall.plain);
    adapted.adaptedBalanced += mean(recall.adapted);
    if ((b + 1) % 10 === 0) process.stderr.write(`batches ${b + 1}/${batches}\n`);
  }
  const lines = [
    '# Corrected counts on shifted batches',
    '',
    `- Team model (${withEmbedding ? 'measured features and the backbone embedding' : 'measured features only'}) trained on ${trainSamples.length} shared images; cross-validated balanced accuracy ${pct(trained.balancedAccuracy ?? 0)}, temperature ${(trained.report?.temperature ?? 1).toFixed(3)}.`,
    `- ${batches} batches (${images} images in all) drawn from ${poolSamples.length} held-out images never trained on: 5-15 classes each, Dirichlet(1) proportions, 150-600 images; seed ${seed}.`,
    '- Proportion error: mean over batches and classes of |estimated share − true share|, in percentage points. Coverage: share of (batch, class) cells whose 95% interval holds the true count; "present": cells of classes in the batch.',
    '',
    '| method | proportion error (pp) | interval coverage | coverage, classes present | mean interval width (images) |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const [name, t] of tallies) {
    lines.push(
      `| ${name} | ${((100 * t.absError) / t.cells).toFixed(3)} | ${t.intervals ? pct(t.covered / t.intervals) : '—'} | ${t.present ? pct(t.coveredPresent / t.present) : '—'} | ${t.intervals ? (t.width / t.intervals).toFixed(1) : '—'} |`,
    );
  }
  lines.push(
    '',
    `Labels adapted to each batch's mix (EM prior, argmax of p·π̂): top-1 ${pct(adapted.adaptedRight / adapted.n)} against ${pct(adapted.plainRight / adapted.n)} unadapted; balanced accuracy within batches ${pct(adapted.adaptedBalanced / batches)} against ${pct(adapted.plainBalanced / batches)}.`,
    '',
  );
  const report = lines.join('\n');
  console.log(report);
  fs.writeFileSync(path.resolve(cwd, args.values.report!), report);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
