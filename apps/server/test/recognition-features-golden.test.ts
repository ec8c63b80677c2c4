/**
 * Golden vectors of the measured features (features.ts): the exact Float32 values, and the measures, of a few fixed
 * inputs, compared against test/fixtures/features-golden.json, keyed by FEATURE_NAMES so that a mismatch names the
 * feature. A refactor of the feature code must leave every value bit-identical (-0 included).
 *
 * Inputs: real dark-field images from ../shared/data/pwssc-spc (read in place, never copied here; the folder is
 * required, this test fails when it is missing) picked by a fixed rule from its labels.csv in path order (the first
 * image of four classes, and the first image at least 1000 px long so that the area-averaged working crop is
 * measured), one of them also with a threshold that
 * no pixel reaches (the Otsu fallback); and synthetic images built below (colour with alpha, a
 * hole, a bright core and a second blob; a large noisy grey object; an empty frame), which depend on no file.
 *
 * The last block checks the writer that places each value by name (features/writer.ts).
 *
 * When the vector changes on purpose (bump FEATURE_VERSION), regenerate the file from the current code with
 *   cd apps/server && UPDATE_GOLDEN=1 npx vitest run --config vitest.config.ts test/recognition-features-golden.test.ts
 * and review its diff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FEATURE_NAMES,
  FEATURE_VERSION,
  decodeImage,
  featuresOfPixels,
  type Measures,
  type RawImage,
  type RoiFeatures,
} from '../src/modules/recognition/features.ts';
import { featureLayout } from '../src/modules/recognition/features/writer.ts';
import { mulberry32 } from '../src/lib/random.ts';

const PWSSC = path.resolve(import.meta.dirname, '../../../../shared/data/pwssc-spc');
const GOLDEN = path.join(import.meta.dirname, 'fixtures/features-golden.json');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** A value as stored: the number (a Float32 widened to a double survives JSON exactly), or '-0'. */
type Stored = number | '-0';

interface GoldenCase {
  values: Record<string, Stored>;
  measures: Record<string, Stored>;
}

interface GoldenFile {
  version: number;
  names: string[];
  cases: Record<string, GoldenCase>;
}

const store = (v: number): Stored => (Object.is(v, -0) ? '-0' : v);
const load = (v: Stored): number => (v === '-0' ? -0 : v);

interface Input {
  name: string;
  image: () => Promise<RawImage> | RawImage;
  threshold?: number;
}

/** The real images: the first (in path order) of a few classes, and the first at least 1000 px long. */
function realInputs(): Input[] {
  if (!fs.existsSync(path.join(PWSSC, 'labels.csv'))) {
    throw new Error(`the golden feature test needs the PWSSC sample at ${PWSSC} (shared/data/pwssc-spc): it is missing`);
  }
  const rows = fs
    .readFileSync(path.join(PWSSC, 'labels.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .map(([file, cls, w, h]) => ({ file: file!, cls: cls!, w: Number(w), h: Number(h) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const picked: string[] = [];
  for (const cls of ['Acartia', 'Chaetognatha', 'Oithona', 'Siphonophora']) {
    const row = rows.find((r) => r.cls === cls);
    if (!row) throw new Error(`no ${cls} image in ${PWSSC}/labels.csv`);
    picked.push(row.file);
  }
  const large = rows.find((r) => Math.max(r.w, r.h) >= 1000);
  if (!large) throw new Error(`no image of at least 1000 px in ${PWSSC}/labels.csv`);
  picked.push(large.file);
  const read = (file: string) => () => decodeImage(fs.readFileSync(path.join(PWSSC, file)));
  return [
    ...picked.map((file) => ({ name: file, image: read(file) })),
    { name: `${picked[0]!} threshold 255 (Otsu fallback)`, image: read(picked[0]!), threshold: 255 },
  ];
}

/** RGBA: a tilted ellipse with a colour gradient, a hole, a bright off-centre core, half-transparent rim, a second blob. */
function colourOrganism(): RawImage {
  const width = 160;
  const height = 120;
  const channels = 4;
  const data = new Uint8Array(width * height * channels);
  const rnd = mulberry32(7);
  const t = 0.6;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * channels;
      const u = (x - 70) * Math.cos(t) + (y - 60) * Math.sin(t);
      const v = -(x - 70) * Math.sin(t) + (y - 60) * Math.cos(t);
      const e = (u / 50) ** 2 + (v / 22) ** 2;
      const hole = (x - 55) ** 2 + (y - 52) ** 2 <= 36;
      const blob = (x - 140) ** 2 + (y - 20) ** 2 <= 144;
      let r = Math.round(rnd() * 2);
      let g = r;
      let b = r;
      let a = 255;
      if (e <= 1 && !hole) {
        const core = (x - 82) ** 2 + (y - 66) ** 2 <= 100;
        const base = core ? 230 : 60 + 80 * (1 - e);
        r = Math.min(255, Math.round(base * (0.7 + 0.3 * (u / 50)) + rnd() * 20));
        g = Math.min(255, Math.round(base * 0.9 + rnd() * 20));
        b = Math.min(255, Math.round(base * (0.6 - 0.2 * (v / 22)) + rnd() * 20));
        if (e > 0.8) a = 160;
      } else if (blob) {
        r = 40;
        g = 200;
        b = 90;
      }
      data[p] = r;
      data[p + 1] = g;
      data[p + 2] = b;
      data[p + 3] = a;
    }
  }
  return { data, width, height, channels };
}

/** Grey: a noisy, lumpy object longer than the 400 px working side, on a noisy background. */
function largeGrey(): RawImage {
  const width = 900;
  const height = 300;
  const data = new Uint8Array(width * height);
  const rnd = mulberry32(11);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = (x - 450) / 420;
      const v = (y - 150) / (60 + 40 * Math.sin(x / 37));
      const inside = u * u + v * v <= 1 || ((x - 200) ** 2 + (y - 60) ** 2 <= 900 && x % 7 !== 0);
      data[y * width + x] = inside ? Math.round(40 + 120 * (1 - Math.abs(v)) + 60 * rnd()) : Math.round(rnd() * 3);
    }
  }
  return { data, width, height, channels: 1 };
}

const syntheticInputs: Input[] = [
  { name: 'synthetic colour organism (RGBA)', image: colourOrganism },
  { name: 'synthetic large grey object', image: largeGrey },
  { name: 'synthetic empty frame', image: () => ({ data: new Uint8Array(30 * 20), width: 30, height: 20, channels: 1 }) },
];

function record(f: RoiFeatures): GoldenCase {
  const values: Record<string, Stored> = {};
  FEATURE_NAMES.forEach((name, i) => (values[name] = store(f.values[i]!)));
  const measures: Record<string, Stored> = {};
  for (const key of Object.keys(f.measures).sort() as (keyof Measures)[]) measures[key] = store(f.measures[key]);
  return { values, measures };
}

/** The differences between a stored case and a computed one, one line per entry that differs. */
function differences(want: GoldenCase, got: GoldenCase): string[] {
  const out: string[] = [];
  for (const [part, w, g] of [
    ['feature', want.values, got.values],
    ['measure', want.measures, got.measures],
  ] as const) {
    for (const key of new Set([...Object.keys(w), ...Object.keys(g)])) {
      const a = w[key];
      const b = g[key];
      if (a === undefined || b === undefined || !Object.is(load(a), load(b))) {
        out.push(`${part} ${key}: golden ${String(a)}, computed ${String(b)}`);
      }
    }
  }
  return out;
}

const inputs = [...realInputs(), ...syntheticInputs];

describe('measured features against the golden vectors', () => {
  const computed: Record<string, GoldenCase> = {};
  const golden: GoldenFile | null = UPDATE ? null : (JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as GoldenFile);

  it('has the golden file of this vector version, with the same names in the same order', () => {
    if (UPDATE) return;
    expect(golden!.version).toBe(FEATURE_VERSION);
    expect(golden!.names).toEqual([...FEATURE_NAMES]);
    expect(Object.keys(golden!.cases).sort()).toEqual(inputs.map((i) => i.name).sort());
  });

  for (const input of inputs) {
    it(`computes ${input.name} bit for bit as stored`, async () => {
      const f = featuresOfPixels(await input.image(), { threshold: input.threshold });
      expect(f.values.length).toBe(FEATURE_NAMES.length);
      const got = record(f);
      computed[input.name] = got;
      if (UPDATE) return;
      const want = golden!.cases[input.name];
      expect(want, `no golden case for ${input.name}`).toBeDefined();
      expect(Object.keys(want!.values)).toEqual([...FEATURE_NAMES]);
      expect(differences(want!, got)).toEqual([]);
    });
  }

  it.runIf(UPDATE)('writes the golden file (UPDATE_GOLDEN=1)', () => {
    expect(Object.keys(computed)).toHaveLength(inputs.length);
    const file: GoldenFile = { version: FEATURE_VERSION, names: [...FEATURE_NAMES], cases: computed };
    fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
    fs.writeFileSync(GOLDEN, `${JSON.stringify(file, null, 2)}\n`);
  });
});

describe('feature writer', () => {
  const layout = featureLayout(['a', 'b', 'c']);

  it('places each value at its name and hands back the vector once all are set', () => {
    const out = layout.writer();
    out.set('c', 3);
    out.setAll(['a', 'b'], [1, 2]);
    expect(Array.from(out.finish())).toEqual([1, 2, 3]);
  });

  it('throws on an unknown name, a name set twice, a name left unset, a group of the wrong length', () => {
    expect(() => layout.writer().set('d', 1)).toThrow(/d is not in FEATURE_NAMES/);
    const twice = layout.writer();
    twice.set('a', 1);
    expect(() => twice.set('a', 1)).toThrow(/a is set twice/);
    const partial = layout.writer();
    partial.set('b', 1);
    expect(() => partial.finish()).toThrow(/not set: a, c/);
    expect(() => layout.writer().setAll(['a', 'b'], [1])).toThrow(/1 values for 2 features/);
    expect(() => featureLayout(['a', 'a'])).toThrow(/a is listed twice/);
  });
});
