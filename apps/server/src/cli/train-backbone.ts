import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeImage } from '../modules/recognition/features.ts';
import { Backbone, BACKBONE_DIR } from '../modules/recognition/embedding/backbone.ts';
import { goldenImages } from '../modules/recognition/embedding/golden.ts';
import { NET_SIDE, netInputOf } from '../modules/recognition/embedding/net-input.ts';
import { scan } from './image-sets.ts';
import { BACKBONE_VIEWS } from '../modules/recognition/vector.ts';
import { heldOutDigest, loadHeldOut } from './held-out.ts';

/** The side of the distilled recipe's teacher input (the students and the server stay at NET_SIDE). */
const TEACHER_SIDE = 96;

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const USAGE = `usage: npm run train:backbone -- [<dir> ...] [--out <dir>] [--epochs 30] [--seed 42] [--threads 2]
                                   [--holdout 0.2] [--recipe v2] [--device cpu|cuda] [--smoke]

Trains the plankton backbone (docs/recognition.md, "Backbone") with PyTorch (python3-torch) on folder-per-class
image sets (default ../shared/data/pwssc-spc and ../shared/data/pwssc-spc-more), exports it to ONNX and writes, in
--out (default apps/server/models/backbone): backbone.onnx, training.json, golden.json and model-card.md.
  --holdout F   of every set after the first, the images whose sha256 falls in the first F of the hash space are
                never trained on (default 0.2): the held-out images every accuracy figure is measured on
  --recipe R    v1: the first backbone's training; v2 (default): square-root class sampling, logit-adjusted loss,
                mixup, blur, contrast and noise, weights averaged (docs/recognition.md, "Backbone")
  --device D    where PyTorch trains (cpu; cuda on a machine with a GPU)
  --widths W    the network's channel widths, stem first (default 16,24,48,96,160); --batch N (default 128)
  --recipe distil  a ResNet teacher at 96×96 distilled into small students at 64×64 (tools/backbone/distil.py; a GPU:
                --device cuda); --teacher-epochs N --student-epochs M (default: as many as fit 270 s and 150 s),
                --students s,m and --keep s (the student that becomes backbone.onnx)
  --pack-only   prepare the data in --work and stop (to carry it to a GPU machine and run distil.py there)
  The frozen balanced held-out list (apps/server/models/held-out.json) is never trained on either.
  --smoke       a few images, one short epoch, into a temporary folder (npm test runs this)
  --skip-training  keep the backbone.onnx and training.json already in --out; record its outputs and write the
                model card again (after a change to how the server reads the network)
  PYTHON        the interpreter with torch (default /usr/bin/python3, Debian's python3-torch)`;

interface Sample {
  sha: string;
  label: number;
  size: [number, number];
  /** test: the natural-mix held-out images; held: the frozen balanced list; neither is trained on. */
  split: 'train' | 'test' | 'held';
  set: number;
  file: string;
}

async function main() {
  const args = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      epochs: { type: 'string', default: '30' },
      seed: { type: 'string', default: '42' },
      threads: { type: 'string', default: '2' },
      holdout: { type: 'string', default: '0.2' },
      recipe: { type: 'string', default: 'v2' },
      widths: { type: 'string' },
      batch: { type: 'string' },
      device: { type: 'string', default: 'cpu' },
      work: { type: 'string' },
      'teacher-epochs': { type: 'string' },
      'student-epochs': { type: 'string' },
      students: { type: 'string' },
      keep: { type: 'string' },
      'pack-only': { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      'skip-training': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (args.values.help) {
    console.log(USAGE);
    return;
  }
  const smoke = args.values.smoke;
  const dirs = args.positionals.length
    ? args.positionals.map((d) => path.resolve(process.cwd(), d))
    : smoke
      ? [path.join(ROOT, '../shared/data/pwssc-spc')]
      : [path.join(ROOT, '../shared/data/pwssc-spc'), path.join(ROOT, '../shared/data/pwssc-spc-more')];
  for (const d of dirs) if (!fs.existsSync(d)) throw new Error(`no image set at ${d}`);
  const holdout = Number(args.values.holdout);
  const out = path.resolve(
    process.cwd(),
    args.values.out ?? (smoke ? fs.mkdtempSync(path.join(os.tmpdir(), 'backbone-smoke-')) : BACKBONE_DIR),
  );
  const work = path.resolve(process.cwd(), args.values.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'backbone-data-')));
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(work, { recursive: true });

  // 1. The network's input of every distinct image, computed by the server's own code (net-input.ts).
  const seen = new Set<string>();
  const entries: { sha: string; cls: string; file: string; bytes: Buffer; set: number }[] = [];
  dirs.forEach((dir, set) => {
    const images = scan(dir);
    let perClass = new Map<string, number>();
    for (const [sha, img] of images) {
      if (seen.has(sha)) continue;
      const cls = [...img.labels][0]!;
      if (smoke) {
        const k = perClass.get(cls) ?? 0;
        if (perClass.size >= 3 && k === 0) continue;
        if (k >= 4) continue;
        perClass = perClass.set(cls, k + 1);
      }
      seen.add(sha);
      entries.push({ sha, cls, file: path.relative(ROOT, img.file), bytes: img.bytes, set });
    }
  });
  const classes = [...new Set(entries.map((e) => e.cls))].sort();
  const heldOut = loadHeldOut();
  const frozen = new Set(heldOut.images.map((i) => i.sha256));
  const distil = args.values.recipe === 'distil';
  const pixels = Buffer.alloc(entries.length * NET_SIDE * NET_SIDE);
  // The distilled recipe's teacher sees the same images at 96×96 (the same code, a larger square).
  const pixels96 = distil ? Buffer.alloc(entries.length * TEACHER_SIDE * TEACHER_SIDE) : undefined;
  const samples: Sample[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const decoded = await decodeImage(e.bytes);
    const input = netInputOf(decoded);
    pixels.set(input.pixels, i * NET_SIDE * NET_SIDE);
    pixels96?.set(netInputOf(decoded, TEACHER_SIDE).pixels, i * TEACHER_SIDE * TEACHER_SIDE);
    const h = parseInt(e.sha.slice(0, 8), 16) / 2 ** 32;
    samples.push({
      sha: e.sha,
      label: classes.indexOf(e.cls),
      size: input.size,
      split: frozen.has(e.sha) ? 'held' : e.set > 0 && h < holdout ? 'test' : 'train',
      set: e.set,
      file: e.file,
    });
    if ((i + 1) % 1000 === 0 || i + 1 === entries.length) process.stderr.write(`prepared ${i + 1}/${entries.length}\n`);
  }
  fs.writeFileSync(path.join(work, 'images.u8'), pixels);
  if (pixels96) fs.writeFileSync(path.join(work, `images${TEACHER_SIDE}.u8`), pixels96);
  fs.writeFileSync(
    path.join(work, 'meta.json'),
    JSON.stringify({ side: NET_SIDE, teacher_side: TEACHER_SIDE, classes, samples, held_out_digest: heldOutDigest(heldOut) }),
  );
  if (args.values['pack-only']) {
    console.log(`packed ${entries.length} images in ${work}`);
    return;
  }

  // 2. Training, in Python.
  const python = process.env.PYTHON ?? '/usr/bin/python3';
  const pyArgs = distil ? distilArgs(work, out, args.values, smoke) : trainArgs(work, out, args.values, smoke);
  pyArgs.push('--held-out-digest', heldOutDigest(heldOut));
  const started = Date.now();
  if (!args.values['skip-training']) {
    const res = spawnSync(python, pyArgs, { stdio: 'inherit' });
    if (res.error) throw new Error(`could not run ${python}: ${res.error.message} (apt-get install python3-torch)`);
    if (res.status !== 0) throw new Error(`training failed (exit ${res.status})`);
  }
  const trained = JSON.parse(fs.readFileSync(path.join(out, 'training.json'), 'utf8')) as {
    wall_seconds?: number;
    train_seconds: number;
  };
  const wallSeconds =
    trained.wall_seconds ?? (args.values['skip-training'] ? trained.train_seconds : (Date.now() - started) / 1000);

  // 3. Load the exported network as the server does; record its outputs on fixed images; write the model card.
  const backbone = await Backbone.load(path.join(out, 'backbone.onnx'));
  const golden = await backbone.embed(
    goldenImages().map((g) => netInputOf(g.image)),
    BACKBONE_VIEWS,
  );
  fs.writeFileSync(
    path.join(out, 'golden.json'),
    JSON.stringify(
      {
        version: backbone.version,
        dim: backbone.dim,
        embeddings: Object.fromEntries(
          goldenImages().map((g, i) => [g.name, [...golden[i]!].map((v) => Number(v.toPrecision(6)))]),
        ),
      },
      null,
      1,
    ) + '\n',
  );
  const training = JSON.parse(fs.readFileSync(path.join(out, 'training.json'), 'utf8'));
  fs.writeFileSync(
    path.join(out, 'model-card.md'),
    modelCard(dirs, classes, samples, training, backbone, wallSeconds, args.values),
  );
  await backbone.close();
  if (!args.values.work) fs.rmSync(work, { recursive: true, force: true });
  console.log(`backbone ${backbone.version} (${backbone.dim} numbers per ROI) in ${out}`);
}

type Options = Record<string, string | boolean | undefined>;

function trainArgs(work: string, out: string, o: Options, smoke: boolean): string[] {
  const script = path.join(ROOT, 'apps/server/tools/backbone/train.py');
  const a = [script, '--data', work, '--out', out, '--seed', String(o.seed), '--threads', String(o.threads)];
  a.push('--recipe', String(o.recipe), '--device', String(o.device));
  if (o.widths) a.push('--widths', String(o.widths));
  if (o.batch && !smoke) a.push('--batch', String(o.batch));
  a.push('--epochs', smoke ? '1' : String(o.epochs));
  if (smoke) a.push('--max-steps', '2', '--batch', '8');
  return a;
}

function distilArgs(work: string, out: string, o: Options, smoke: boolean): string[] {
  const script = path.join(ROOT, 'apps/server/tools/backbone/distil.py');
  const a = [script, '--data', work, '--out', out, '--seed', String(o.seed), '--device', String(o.device)];
  for (const k of ['teacher-epochs', 'student-epochs', 'students', 'keep'] as const) if (o[k]) a.push(`--${k}`, String(o[k]));
  if (!o.keep) a.push('--keep', String(o.students ?? 's').split(',')[0]!);
  if (o.batch && !smoke) a.push('--batch', String(o.batch));
  if (smoke) a.push('--max-steps', '2', '--batch', '8', '--teacher-widths', '8,16,16,32');
  return a;
}

interface Measured {
  top1: number;
  balanced: number;
}
interface DistilLog {
  settings: Record<string, string | number>;
  kept?: string;
  phases: Record<
    string,
    { epochs?: number; parameters?: number; widths?: string; seconds?: number } & Record<string, Measured | undefined>
  >;
}

/** The distilled recipe's lines of the model card: the teacher, every student, and which one this network is. */
function distilLines(t: DistilLog): string {
  const pc = (m: Measured | undefined, k: keyof Measured) => (m ? `${(100 * m[k]).toFixed(1)}%` : '—');
  const teacher = t.phases.teacher!;
  const students = Object.keys(t.phases).filter((k) => k.startsWith('student_'));
  return [
    `- **Recipe distil**: a teacher (ResNet of basic blocks, widths ${String(t.settings.teacher_widths)}, ${teacher.parameters ?? '—'} parameters) trained ${teacher.epochs ?? '—'} epochs at 96×96 on the GPU (square-root class sampling, logit-adjusted cross-entropy with label smoothing 0.1, mixup on half the batches, turns, mirrors, zoom, shift, gain, gamma, blur, contrast and noise, weights averaged), balanced accuracy on the frozen list ${pc(teacher.held_8_views, 'balanced')} over eight views; then students at 64×64 trained ${t.phases.students?.epochs ?? '—'} epochs on the teacher's scores at temperature 2 (weight 0.7) and the labels (0.3).`,
    ...students.map((k) => {
      const s = t.phases[k]!;
      return `- **Student ${k.slice(8)}**${t.kept === k.slice(8) ? ' (this network)' : ''}: widths ${s.widths ?? '—'}, ${s.parameters ?? '—'} parameters; balanced accuracy on the frozen list ${pc(s.held_1_view, 'balanced')} with one view (top-1 ${pc(s.held_1_view, 'top1')}), ${pc(s.held_8_views, 'balanced')} with eight.`;
    }),
  ].join('\n');
}

function modelCard(
  dirs: string[],
  classes: string[],
  samples: Sample[],
  training: {
    epochs: {
      epoch: number;
      loss: number;
      held_out_top1?: number;
      held_out_balanced?: number;
      balanced_set_top1?: number;
      balanced_set_balanced?: number;
    }[];
    train_seconds: number;
    settings: Record<string, unknown>;
    held_out_digest?: string;
    recipe?: string;
    device?: string;
  },
  backbone: Backbone,
  wallSeconds: number,
  opts: Record<string, unknown>,
): string {
  const count = (split: string) => samples.filter((s) => s.split === split).length;
  const last = [...training.epochs].reverse().find((e) => e.held_out_top1 !== undefined || e.balanced_set_balanced !== undefined);
  const perClass = classes.map((c, i) => {
    const n = (split: Sample['split']) => samples.filter((s) => s.label === i && s.split === split).length;
    return `| ${c} | ${n('train')} | ${n('held')} | ${n('test')} |`;
  });
  const pc = (v: number | undefined) => (v === undefined ? '—' : `${(100 * v).toFixed(1)}%`);
  return [
    '# Model card: plankton backbone',
    '',
    `- **Version** ${backbone.version} (first 12 hex of the ONNX file's sha256); ${backbone.dim} numbers per ROI: the ${backbone.dim - classes.length}-number embedding, then ln of the network's own ${classes.length} class scores (+10⁻⁴), ${BACKBONE_VIEWS === 8 ? 'each averaged over the eight turns and mirrors' : 'of the image as it is (one view; the network learnt turns and mirrors from its augmentation)'}.`,
    training.recipe === 'distil'
      ? `- **Made by** \`npm run train:backbone -- --recipe distil --device cuda --teacher-epochs ${String(training.settings.teacher_epochs || '…')} --student-epochs ${String(training.settings.student_epochs || '…')} --keep ${String(training.settings.keep)}\` (apps/server/src/cli/train-backbone.ts, apps/server/tools/backbone/distil.py), seed ${String(training.settings.seed)}.`
      : `- **Made by** \`npm run train:backbone\` (apps/server/src/cli/train-backbone.ts, apps/server/tools/backbone/train.py), seed ${String(opts.seed)}, ${String(opts.threads)} threads, ${String(training.settings.epochs)} epochs.`,
    `- **Data**: ${dirs.map((d) => path.relative(ROOT, d)).join(', ')} (MIT, Scripps Plankton Camera, PWSSC): ${samples.length} distinct images, ${count('train')} trained on, ${count('held') + count('test')} held out (never trained on): the frozen balanced list apps/server/models/held-out.json and, of every set after the first, the images whose sha256 falls in the first ${String(opts.holdout)} of the hash space.`,
    `- **Input**: the grey level above the background, stretched to its 99.5th percentile, fitted into ${NET_SIDE}×${NET_SIDE} (net-input.ts), and ln of the image's long and short side.`,
    `- **Training time**: ${training.train_seconds} s of training, ${wallSeconds.toFixed(0)} s with export, on ${training.device && training.device !== 'cpu' ? `one ${training.device}` : `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`}.`,
    `- **Held-out score** (images never trained on; the network's own ${classes.length}-class head, ${training.recipe === 'distil' ? 'one view' : 'averaged over the 8 turns and mirrors'}, epoch ${last?.epoch ?? '—'}): **balanced accuracy ${pc(last?.balanced_set_balanced)}** (top-1 ${pc(last?.balanced_set_top1)}) on the frozen balanced held-out list (${count('held')} images, at most 20 a class, digest ${training.held_out_digest || '—'}); on the natural mix (${count('test')} images) top-1 ${pc(last?.held_out_top1)}, balanced accuracy ${pc(last?.held_out_balanced)}. The console's per-team classifiers are trained on the embedding and measured separately (docs/recognition.md).`,
    training.recipe === 'distil'
      ? distilLines(training as unknown as DistilLog)
      : `- **Final training loss** ${training.epochs.at(-1)?.loss.toFixed(3) ?? '—'} (recipe ${String(training.settings.recipe ?? 'v1')}: ${training.settings.recipe === 'v2' ? 'square-root class sampling, logit-adjusted cross-entropy with label smoothing 0.1, mixup on half the batches' : 'cross-entropy with label smoothing 0.1, inverse square-root class weights'}).`,
    '- **Use**: the server embeds every ROI with it: features of the per-team classifiers, "more like this", and its own head mapped to a team\'s classes as a member of the team\'s model (network-member.ts). Not for other instruments without checking: it has only seen PWSSC dark-field images.',
    '',
    '## Classes',
    '',
    '| class | trained on | held out (balanced list) | held out (natural mix) |',
    '| --- | ---: | ---: | ---: |',
    ...perClass,
    '',
  ].join('\n');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  process.exit(1);
});
