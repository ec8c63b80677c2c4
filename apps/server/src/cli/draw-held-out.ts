import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scan } from './image-sets.ts';
import { HELD_OUT_FILE, drawHeldOut, heldOutDigest, upstreamClasses } from './held-out.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const USAGE = `usage: npm run held-out:draw -- [<dir> ...] [--out <file>] [--check]

Draws the balanced held-out set (docs/recognition.md, "Measuring") from folder-per-class image sets (default
../shared/data/pwssc-spc and ../shared/data/pwssc-spc-more) into --out (default apps/server/models/held-out.json).
The list is frozen: drawn once and committed. --check draws again and fails if the committed list differs.`;

function main() {
  const args = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { out: { type: 'string' }, check: { type: 'boolean', default: false }, help: { type: 'boolean' } },
  });
  if (args.values.help) {
    console.log(USAGE);
    return 0;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const dirs = args.positionals.length
    ? args.positionals.map((d) => path.resolve(cwd, d))
    : [path.join(ROOT, '../shared/data/pwssc-spc'), path.join(ROOT, '../shared/data/pwssc-spc-more')];
  const drawn = drawHeldOut(dirs.map((d) => ({ name: path.basename(d), images: scan(d), upstream: upstreamClasses(d) })));
  const out = args.values.out ? path.resolve(cwd, args.values.out) : HELD_OUT_FILE;
  const text = `${JSON.stringify(drawn, null, 1)}\n`;
  if (args.values.check) {
    const same = fs.existsSync(out) && fs.readFileSync(out, 'utf8') === text;
    console.log(same ? `held-out list ${heldOutDigest(drawn)} matches ${out}` : `held-out list differs from ${out}`);
    return same ? 0 : 1;
  }
  fs.writeFileSync(out, text);
  const perClass = new Map<string, number>();
  for (const i of drawn.images) perClass.set(i.class, (perClass.get(i.class) ?? 0) + 1);
  console.log(
    `${drawn.images.length} images in ${perClass.size} classes (digest ${heldOutDigest(drawn)}) written to ${out}\n` +
      [...perClass].map(([c, n]) => `${c} ${n}`).join(', '),
  );
  return 0;
}

process.exitCode = main();
