import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate } from '../modules/recognition/classifier/evaluation.ts';
import type { Prediction } from '../modules/recognition/classifier/forest.ts';
import { Backbone } from '../modules/recognition/embedding/backbone.ts';
import { netInputOf } from '../modules/recognition/embedding/net-input.ts';
import { DEFAULT_THRESHOLD, decodeImage, featuresOfPixels, type RawImage } from '../modules/recognition/features.ts';
import { topOf } from '../modules/recognition/linear-head.ts';
import { trainTeamModel } from '../modules/recognition/team-model.ts';
import { hashPosition, loadHeldOut, NATURAL_HOLDOUT } from './held-out.ts';
import { applyLabelsCsv, scan } from './image-sets.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const USAGE = `usage: npm run eval:heads -- <backbone.onnx> ... [--train-on all,first,unseen] [--views 1|8]

Issue 38's experiment on which head turns a candidate network into the best labels (docs/recognition.md,
"Experiments of issue 38"). For each network and training set it prints the balanced accuracy on the frozen held-out
list (apps/server/models/held-out.json) of: the team model (forest + logit-adjusted softmax regression, averaged) on
the measured features with the network's outputs and on the network's outputs alone, each half alone, and the
network's own head mapped to the team's classes (the network member, network-member.ts; on full vectors only),
alone and averaged ½ with the team model.
  --train-on  all: every shared image outside both held-out sets; first: pwssc-spc's alone; unseen: the natural-mix
              held-out images (never trained on by the network; only their classes are scored)
The measured features are cached in $TMPDIR/ipp-eval-heads-measured.json.`;

type Sets = Map<string, { labels: Set<string>; bytes: Buffer }>;
type Model = { predictMany(xs: ArrayLike<number>[], top?: number): Prediction[][] };

async function main() {
  const args = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { 'train-on': { type: 'string', default: 'all,first' }, views: { type: 'string', default: '1' } },
  });
  if (!args.positionals.length) {
    console.error(USAGE);
    process.exit(2);
  }
  const A = path.join(ROOT, '../shared/data/pwssc-spc');
  const B = path.join(ROOT, '../shared/data/pwssc-spc-more');
  const first = scan(A);
  const more = scan(B);
  applyLabelsCsv(A, first);
  applyLabelsCsv(B, more);
  const all: Sets = new Map([...first, ...more]);
  const held = new Set(loadHeldOut().images.map((i) => i.sha256));
  const natural = new Set([...more.keys()].filter((s) => hashPosition(s) < NATURAL_HOLDOUT && !first.has(s)));
  const names = [...new Set([...all.values()].flatMap((i) => [...i.labels]))].sort();
  const id = new Map(names.map((n, i) => [n, i]));
  const shas = [...all.keys()];
  const primary = (s: string) => id.get([...all.get(s)!.labels][0]!)!;

  const decoded = new Map<string, RawImage>();
  for (const s of shas) decoded.set(s, await decodeImage(all.get(s)!.bytes));
  const cacheFile = path.join(os.tmpdir(), 'ipp-eval-heads-measured.json');
  const measured: Record<string, number[]> = fs.existsSync(cacheFile) ? JSON.parse(fs.readFileSync(cacheFile, 'utf8')) : {};
  if (shas.some((s) => !measured[s])) {
    for (const s of shas) measured[s] ??= [...featuresOfPixels(decoded.get(s)!, { threshold: DEFAULT_THRESHOLD }).values];
    fs.writeFileSync(cacheFile, JSON.stringify(measured));
  }
  const views = Number(args.values.views) === 8 ? 8 : 1;
  for (const file of args.positionals) {
    const net = await Backbone.load(path.resolve(process.env.INIT_CWD ?? process.cwd(), file));
    const learned = new Map<string, Float32Array>();
    const inputs = shas.map((s) => netInputOf(decoded.get(s)!));
    for (let i = 0; i < shas.length; i += 64)
      (await net.embed(inputs.slice(i, i + 64), views)).forEach((v, k) => learned.set(shas[i + k]!, v));
    for (const trainOn of args.values['train-on']!.split(',')) {
      const keep = (s: string) =>
        trainOn === 'unseen'
          ? natural.has(s) && !held.has(s)
          : !held.has(s) && !natural.has(s) && (trainOn === 'all' || first.has(s));
      const trained = new Set(shas.filter(keep).map(primary));
      const line: string[] = [];
      for (const which of ['measured', 'both', 'network'] as const) {
        const vec = (s: string) =>
          which === 'measured'
            ? measured[s]!
            : which === 'network'
              ? [...learned.get(s)!]
              : [...measured[s]!, ...learned.get(s)!];
        const setOf = (pick: (s: string) => boolean) => {
          const ss = shas.filter(pick);
          return { x: ss.map(vec), y: ss.map(primary), accepted: ss.map((s) => [...all.get(s)!.labels].map((l) => id.get(l)!)) };
        };
        const train = setOf(keep);
        const test = setOf((s) => held.has(s) && trained.has(primary(s)));
        // The product's team model (forest, regression and, on full vectors, the network member).
        const team = trainTeamModel(train, { seed: 42 });
        const ba = (m: Model) => `${(100 * evaluate(m as never, test).balancedAccuracy).toFixed(1)}%`;
        const linear: Model = { predictMany: (xs) => xs.map((x) => topOf(team.linear.classes, team.linear.proba(x), 1)) };
        let text = `${which}: team ${ba(team)}, regression ${ba(linear)}, forest ${ba(team.forest)}`;
        if (team.member) text += `, member ${ba(team.withMemberWeight(1))}, team+member (½) ${ba(team.withMemberWeight(0.5))}`;
        line.push(text);
      }
      console.log(
        `${path.basename(file)} (${net.version}), ${views} view(s), train on ${trainOn} (${trained.size} classes): ${line.join('; ')}`,
      );
    }
    await net.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
