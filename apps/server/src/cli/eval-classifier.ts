import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, type Evaluation } from '../modules/recognition/classifier/evaluation.ts';
import { crossValidate, trainClassifier, type TrainingSet } from '../modules/recognition/classifier/train-forest.ts';
import { mulberry32 } from '../lib/random.ts';
import { applyLabelsCsv, scan, type Images } from './image-sets.ts';
import { mean, median, pct, render } from './eval-report.ts';
import { HELD_OUT_FILE, NATURAL_HOLDOUT, heldOutDigest, loadHeldOut } from './held-out.ts';
import { DEFAULT_THRESHOLD, FEATURE_VERSION, decodeImage, featuresOfPixels } from '../modules/recognition/features.ts';
import {
  crossValidateTeamModel,
  loadPredictor,
  TeamModel,
  trainTeamModel,
  type Predictor,
} from '../modules/recognition/team-model.ts';
import { trainAndEvaluate } from '../modules/recognition/training.ts';
import { VECTOR_VERSION, backbone, vectorOf } from '../modules/recognition/vector.ts';

const USAGE = `usage: npm run eval:classifier -- <dir> [--test <dir2>] [--folds 5] [--report <file>] [--seed N] [--trees N]
                                    [--threshold N] [--no-labels-csv] [--head team|forest] [--features vector|measured]
                                    [--curve] [--holdout F] [--held-out [--train-on all|first]]

Measures how well recognition (features + random forest, docs/recognition.md) tells apart the classes of a labelled
image set: <dir> holds one sub-folder of images (png, jpg, webp, tif) per class.
  without --test   stratified k-fold cross-validation on <dir> (--folds, default 5)
  --test <dir2>    trains on <dir> and scores on <dir2>; classes are matched by folder name
  --report <file>  Markdown report (default ./eval-report.md)
  --seed N         forest and fold seed (default 42); --trees N forest size (default 300)
  --threshold N    binarization threshold for segmentation (default ${DEFAULT_THRESHOLD})
  --head H         team (default): the console's per-team model, forest and softmax regression averaged and
                   calibrated; forest: the random forest alone (the first releases' model)
  --features F     vector (default): measured features and the backbone's embedding; measured: the 206 alone
  --curve          learning curve: trained on the images of <dir> alone, on 2,500 and on all training images
                   (seeded random subsets), each scored by cross-validation and, with --test, on the test set
  --holdout F      with --test: only the images of <dir2> whose sha256 falls in the first F of the hash space are
                   the test set, the others of <dir2> join the training set (npm run train:backbone's split: with
                   <dir> pwssc-spc, <dir2> pwssc-spc-more and F 0.2, the test images are those the committed
                   backbone never saw)
  --held-out       the project's headline measurement (docs/recognition.md, "Measuring"): <dir> and --test default
                   to ../shared/data/pwssc-spc and pwssc-spc-more with --holdout 0.2; the frozen balanced held-out
                   list (apps/server/models/held-out.json, at most 20 images a class) is never trained on and gives
                   the headline balanced accuracy; the --holdout images give the natural-mix figures beside it
  --train-on T     with --held-out: all (default) trains on every other image of both sets; first on <dir>'s alone
  --views N        1 or 8: the backbone's views per image (default: the vector version's)
  --prior P        team head: balanced (default; the regression is logit-adjusted, docs/recognition.md) or natural
One image (same bytes) in several class folders is one sample: any of its classes counts as correct.
A labels.csv in a set's folder (header row; a sha256 or path column, path relative to the folder, and an
upstream_classes or classes column, '|'-separated) adds the classes it lists for an image to those of its folders,
so that a prediction of any of them counts as correct; classes without a folder are ignored. The report says how
many images that made multi-labelled. --no-labels-csv ignores labels.csv (folders only).`;

interface Sample {
  sha: string;
  file: string;
  /** Class names, sorted. */
  labels: string[];
  /** The class it is trained and stratified as: its first class folder. */
  primary: string;
  values: Float32Array;
}

interface Timing {
  decodeMs: number[];
  featureMs: number[];
}

function progress(label: string, done: number, total: number) {
  const line = `${label} ${done}/${total}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(60)}${done === total ? '\n' : ''}`);
  else if (done === total || done % Math.max(1, Math.floor(total / 10)) === 0) process.stderr.write(`${line}\n`);
}

async function measureAll(
  label: string,
  images: Images,
  threshold: number,
  timing: Timing,
  withEmbedding: boolean,
  views?: 1 | 8,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  let done = 0;
  for (const [sha, image] of images) {
    const t0 = performance.now();
    const pixels = await decodeImage(image.bytes);
    const t1 = performance.now();
    const { values } = withEmbedding ? await vectorOf(pixels, { threshold, views }) : featuresOfPixels(pixels, { threshold });
    const t2 = performance.now();
    timing.decodeMs.push(t1 - t0);
    timing.featureMs.push(t2 - t1);
    samples.push({ sha, file: image.file, labels: [...image.labels].sort(), primary: [...image.labels][0]!, values });
    progress(`${label}: features`, ++done, images.size);
  }
  return samples;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        test: { type: 'string' },
        folds: { type: 'string', default: '5' },
        report: { type: 'string', default: 'eval-report.md' },
        seed: { type: 'string', default: '42' },
        trees: { type: 'string', default: '300' },
        threshold: { type: 'string', default: String(DEFAULT_THRESHOLD) },
        'no-labels-csv': { type: 'boolean' },
        head: { type: 'string', default: 'team' },
        features: { type: 'string', default: 'vector' },
        curve: { type: 'boolean' },
        holdout: { type: 'string' },
        'held-out': { type: 'boolean' },
        'train-on': { type: 'string', default: 'all' },
        prior: { type: 'string', default: 'balanced' },
        views: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    console.error(`eval-classifier: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const folds = Number(args.values.folds);
  const seed = Number(args.values.seed);
  const trees = Number(args.values.trees);
  const threshold = Number(args.values.threshold);
  const heldOutMode = args.values['held-out'] === true;
  const shared = path.resolve(import.meta.dirname, '../../../../../shared/data');
  if (heldOutMode) {
    args.values.test ??= path.join(shared, 'pwssc-spc-more');
    args.values.holdout ??= String(NATURAL_HOLDOUT);
  }
  const dirArg = args.positionals[0] ?? (heldOutMode ? path.join(shared, 'pwssc-spc') : undefined);
  if (
    !dirArg ||
    !['all', 'first'].includes(args.values['train-on']!) ||
    !['balanced', 'natural'].includes(args.values.prior!) ||
    (args.values.views !== undefined && !['1', '8'].includes(args.values.views)) ||
    args.positionals.length > 1 ||
    !Number.isInteger(folds) ||
    folds < 2 ||
    !Number.isInteger(seed) ||
    !Number.isInteger(trees) ||
    trees < 1 ||
    !(threshold >= 1 && threshold <= 255) ||
    !['team', 'forest'].includes(args.values.head!) ||
    !['vector', 'measured'].includes(args.values.features!) ||
    (args.values.holdout !== undefined &&
      (!args.values.test || !(Number(args.values.holdout) > 0 && Number(args.values.holdout) < 1)))
  ) {
    console.error(USAGE);
    return 2;
  }
  // npm runs scripts from the package root; paths are the caller's.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dir = path.resolve(cwd, dirArg);
  const testDir = args.values.test ? path.resolve(cwd, args.values.test) : null;
  const reportFile = path.resolve(cwd, args.values.report);
  for (const d of [dir, testDir]) {
    if (d && !fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) {
      console.error(`eval-classifier: ${d} is not a folder`);
      return 2;
    }
  }

  const timing: Timing = { decodeMs: [], featureMs: [] };
  const trainImages = scan(dir);
  const testImages = testDir ? scan(testDir) : null;
  const notes: string[] = [];
  const multiInFolders = (images: Images) => [...images.values()].filter((i) => i.labels.size > 1).length;
  const folderMulti = [multiInFolders(trainImages), testImages ? multiInFolders(testImages) : 0];
  for (const [d, images] of [
    [dir, trainImages],
    [testDir, testImages],
  ] as const) {
    if (!d || !images) continue;
    if (args.values['no-labels-csv']) {
      if (fs.existsSync(path.join(d, 'labels.csv'))) notes.push(`${path.join(d, 'labels.csv')} ignored (--no-labels-csv).`);
      continue;
    }
    const applied = applyLabelsCsv(d, images);
    if (applied) {
      const line =
        `${applied.file}: ${applied.added} extra class labels added, ${applied.multi} images of ${images.size} now have several accepted classes` +
        ` (${d === dir ? folderMulti[0] : folderMulti[1]} from folders alone); ${applied.ignored} labels of classes without a folder ignored.`;
      notes.push(line);
      console.error(line);
    }
  }
  let overlap = 0;
  const firstSet = new Set(trainImages.keys());
  if (testImages && args.values.holdout !== undefined) {
    const holdout = Number(args.values.holdout);
    let moved = 0;
    for (const [sha, image] of [...testImages]) {
      if (parseInt(sha.slice(0, 8), 16) / 2 ** 32 < holdout || trainImages.has(sha)) continue;
      testImages.delete(sha);
      trainImages.set(sha, image);
      moved++;
    }
    notes.push(
      `Held-out split: the ${testImages.size} images of ${testDir} whose sha256 falls in the first ${holdout} of the hash space are the test set; its other ${moved} images were trained on.`,
    );
  }
  if (testImages) {
    // An image in both sets is scored, never trained on.
    for (const sha of testImages.keys()) if (trainImages.delete(sha)) overlap++;
  }
  /** --held-out: the frozen balanced list, scored and never trained on. */
  const balancedImages: Images = new Map();
  if (heldOutMode) {
    const frozen = loadHeldOut();
    for (const { sha256 } of frozen.images) {
      const image = trainImages.get(sha256) ?? testImages?.get(sha256);
      if (!image) throw new Error(`held-out image ${sha256} is in neither set`);
      balancedImages.set(sha256, image);
      trainImages.delete(sha256);
    }
    if (args.values['train-on'] === 'first')
      for (const sha of [...trainImages.keys()]) if (!firstSet.has(sha)) trainImages.delete(sha);
    notes.push(
      `Held-out list ${path.relative(process.cwd(), HELD_OUT_FILE)} (digest ${heldOutDigest(frozen)}): ${balancedImages.size} images, at most ${frozen.per_class} a class, never trained on; ` +
        `trained on ${args.values['train-on'] === 'first' ? `the images of ${dir} alone` : 'every other image of both sets'}.`,
    );
  }
  const withEmbedding = args.values.features === 'vector';
  const head = args.values.head as 'team' | 'forest';
  const prior = args.values.prior as 'balanced' | 'natural';
  const views = args.values.views === undefined ? undefined : (Number(args.values.views) as 1 | 8);
  const train = await measureAll(testDir ? 'train' : 'images', trainImages, threshold, timing, withEmbedding, views);
  const test = testImages ? await measureAll('test', testImages, threshold, timing, withEmbedding, views) : [];
  const balanced = balancedImages.size
    ? await measureAll('held-out', balancedImages, threshold, timing, withEmbedding, views)
    : [];
  const names = [...new Set([...train, ...test, ...balanced].flatMap((s) => s.labels))].sort();
  const idOf = new Map(names.map((n, i) => [n, i]));
  const toSet = (samples: Sample[]): TrainingSet & { accepted: number[][] } => ({
    x: samples.map((s) => s.values),
    y: samples.map((s) => idOf.get(s.primary)!),
    accepted: samples.map((s) => s.labels.map((l) => idOf.get(l)!)),
  });
  const trainSet = toSet(train);
  /** Indices of the training samples that came from <dir> itself (the learning curve's first point). */
  const ofFirstSet = train.flatMap((s, i) => (firstSet.has(s.sha) ? [i] : []));
  const fitted = new Map<TrainingSet, Predictor>();
  const fit = (set: TrainingSet & { accepted?: number[][] }): Predictor => {
    let model = fitted.get(set);
    if (model) return model;
    if (head === 'forest')
      model = trainClassifier(set, {
        seed,
        trees,
        onProgress: (f) => progress('training (trees)', Math.round(f * trees), trees),
      });
    else if (prior === 'natural') model = trainTeamModel(set, { seed, prior });
    // The product's training (training.ts): the cross-validation chooses the network member's weight and the
    // calibration temperature, then the model is trained on everything.
    else
      model = loadPredictor(
        trainAndEvaluate({ x: set.x as number[][], y: set.y, accepted: set.accepted ?? set.y.map((y) => [y]), seed }, (f) =>
          progress('training (cross-validation, then all)', Math.round(f * 100), 100),
        ).model,
      );
    fitted.set(set, model);
    return model;
  };
  const crossValidation = (set: TrainingSet & { accepted: number[][] }): Evaluation =>
    head === 'forest'
      ? crossValidate(set, folds, {
          seed,
          trees,
          onProgress: (f) => progress(`cross-validation (${folds} folds, trees)`, Math.round(f * folds * trees), folds * trees),
        })
      : crossValidateTeamModel(set, folds, { seed, prior, onFold: (i) => progress(`cross-validation (folds)`, i + 1, folds) });
  const learningCurve = (
    set: TrainingSet & { accepted: number[][] },
    testSet: (TrainingSet & { accepted: number[][] }) | null,
  ) => {
    const lines = [
      '**Learning curve** (the images of <dir> alone, then seeded random subsets of the training set in a shuffled order, so the last row differs a little from the headline; cross-validation on the subset' +
        (testSet ? '; test: the --test set' : '') +
        '):',
      '',
      `| trained on | cross-validation top-1 | balanced |${testSet ? ' test top-1 | balanced |' : ''}`,
      `| ---: | ---: | ---: |${testSet ? ' ---: | ---: |' : ''}`,
    ];
    const order = set.x.map((_, i) => i);
    const random = mulberry32(seed);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const picks = [ofFirstSet, order.slice(0, 2500), order].filter(
      (p, i, all) => p.length > 0 && (i === 0 || p.length > all[i - 1]!.length),
    );
    for (const pick of picks) {
      const size = pick.length;
      const sub = { x: pick.map((i) => set.x[i]!), y: pick.map((i) => set.y[i]!), accepted: pick.map((i) => set.accepted[i]!) };
      const cv = crossValidation(sub);
      let line = `| ${size} | ${pct(cv.accuracy)} | ${pct(cv.balancedAccuracy)} |`;
      if (testSet) {
        const ev2 = evaluate(fit(sub), testSet);
        line += ` ${pct(ev2.accuracy)} | ${pct(ev2.balancedAccuracy)} |`;
      }
      lines.push(line);
      console.error(line);
    }
    return lines;
  };
  const trainClasses = new Set(trainSet.y);
  if (trainClasses.size < 2) {
    console.error(`eval-classifier: ${dir} needs at least two class folders with images`);
    return 2;
  }
  const multi = (samples: Sample[]) => samples.filter((s) => s.labels.length > 1).length;
  notes.push(
    withEmbedding
      ? `Recognition vector version ${VECTOR_VERSION}: measured features (version ${FEATURE_VERSION}) and the embedding of backbone ${(await backbone()).version}; binarization threshold ${threshold}, seed ${seed}.`
      : `Measured features only (version ${FEATURE_VERSION}), binarization threshold ${threshold}, seed ${seed}.`,
    head === 'team'
      ? `Model: the per-team model (random forest and softmax regression, probabilities averaged; team-model.ts), ${prior} prior.`
      : `Model: random forest alone, ${trees} trees.`,
    `Training set ${dir}: ${train.length} distinct images in ${trainClasses.size} classes` +
      ` (${multi(train)} images have several accepted classes — several class folders or labels.csv — and count as correct in any of them).`,
  );

  let ev: Evaluation;
  let title: string;
  const t0 = performance.now();
  if (testDir) {
    const testSet = toSet(test);
    const unknown = testSet.accepted.filter((ok) => !ok.some((c) => trainClasses.has(c))).length;
    const unknownClasses = [...new Set(test.flatMap((s) => s.labels))].filter((n) => !trainClasses.has(idOf.get(n)!));
    const model = fit(trainSet);
    if (model instanceof TeamModel && model.member)
      notes.push(
        `Network member (the backbone's head mapped to the team's classes) weight ${model.memberWeight}, chosen by the cross-validation.`,
      );
    ev = evaluate(model, testSet);
    title = 'Recognition: train / test evaluation';
    if (heldOutMode) {
      const natural = ev;
      ev = evaluate(model, toSet(balanced));
      title = 'Recognition: balanced held-out evaluation';
      const line =
        `Natural mix (the ${natural.n} held-out images of ${testDir}, as the ocean sends them): top-1 ${pct(natural.accuracy)}, ` +
        `balanced accuracy ${pct(natural.balancedAccuracy)}, expected calibration error ${pct(natural.ece ?? 0)}.`;
      notes.push(line);
      console.error(line);
    }
    notes.push(
      `Test set ${testDir}: ${test.length} distinct images (${multi(test)} with several accepted classes).`,
      `${overlap} images of the test set also in the training set were left out of training.`,
      `${unknown} test images belong only to classes unknown to training (${unknownClasses.join(', ') || 'none'}): they count as wrong.`,
    );
  } else {
    ev = crossValidation(trainSet);
    title = `Recognition: ${folds}-fold cross-validation`;
    notes.push(`Stratified ${folds}-fold cross-validation: every image is predicted by a forest that never saw it.`);
  }
  const evalSeconds = (performance.now() - t0) / 1000;

  // Speed of the final model: trained on the whole training set, classifying a batch.
  const t1 = performance.now();
  const full = fit(trainSet);
  const trainSeconds = (performance.now() - t1) / 1000;
  const batch = Array.from({ length: 20_000 }, (_, i) => trainSet.x[i % trainSet.x.length]!);
  full.predictMany(batch.slice(0, 1000), 3);
  const t2 = performance.now();
  full.predictMany(batch, 3);
  const predictUs = ((performance.now() - t2) * 1000) / batch.length;
  notes.push(
    `Per image: decode median ${median(timing.decodeMs).toFixed(1)} ms (mean ${mean(timing.decodeMs).toFixed(1)}),` +
      ` features median ${median(timing.featureMs).toFixed(1)} ms (mean ${mean(timing.featureMs).toFixed(1)}, max ${Math.max(...timing.featureMs).toFixed(0)}).`,
    `Evaluation took ${evalSeconds.toFixed(1)} s; a forest on all ${trainSet.x.length} training images ${trainSeconds.toFixed(1)} s;` +
      ` predictMany (top 3) ${predictUs.toFixed(1)} µs per image.`,
  );

  const curve: string[] = [];
  if (args.values.curve) {
    curve.push(...learningCurve(trainSet, testDir ? toSet(test) : null));
  }
  const report = render(title, ev, names, notes, curve);
  console.log(report);
  fs.writeFileSync(reportFile, report);
  console.error(`report written to ${reportFile}`);
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
