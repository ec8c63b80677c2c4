/**
 * Reads V8 CPU profiles (`node --cpu-prof`, e.g. from `npm run bench:ingest -- --profile DIR`) and prints, per thread,
 * how busy it was and where its time went: by source file or package, then by function (self time).
 *
 *   npm run bench:profile-summary -w bench -- DIR/*.cpuprofile [--top N]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values: flags, positionals: files } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
});
const TOP = Number(flags.top);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A package's name for code under node_modules, the last two path parts for the project's own, or V8's label. */
function placeOf(frame: ProfileNode['callFrame']) {
  const { url, functionName } = frame;
  if (url.includes('node_modules/')) return `package ${url.split('node_modules/').at(-1)!.split('/')[0]}`;
  return url ? url.split('/').slice(-2).join('/') : functionName;
}

function table(totals: Map<string, number>, all: number) {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([key, us]) => `${((100 * us) / all).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
}

for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let all = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    all += us;
    if (frame.functionName === '(idle)') idle += us;
    const place = placeOf(frame);
    places.set(place, (places.get(place) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'}  ${frame.url ? `${place}:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  console.log(`\n== ${file}\n${(all / 1e6).toFixed(1)} s profiled, busy ${((100 * (all - idle)) / all).toFixed(1)}%`);
  console.log(`-- by file or package (self time)\n${table(places, all)}`);
  console.log(`-- by function (self time)\n${table(functions, all)}`);
}
