import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backbone, BACKBONE_DIR } from '../src/modules/recognition/embedding/backbone.ts';
import { goldenImages } from '../src/modules/recognition/embedding/golden.ts';
import { dihedral, NET_SIDE, netInputOf } from '../src/modules/recognition/embedding/net-input.ts';
import {
  BACKBONE_VERSION,
  BACKBONE_VIEWS,
  EMBEDDING_DIM,
  LEARNED_DIM,
  VECTOR_NAMES,
  vectorOf,
} from '../src/modules/recognition/vector.ts';
import { FEATURE_NAMES } from '../src/modules/recognition/features.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

describe('the committed backbone', () => {
  let net: Backbone;
  beforeAll(async () => {
    net = await Backbone.load();
  });
  afterAll(async () => {
    await net.close();
  });

  it('is the network VECTOR_VERSION names, and its model card and recorded outputs are committed with it', () => {
    expect(net.version).toBe(BACKBONE_VERSION);
    expect(net.dim).toBe(LEARNED_DIM);
    expect(VECTOR_NAMES.length).toBe(FEATURE_NAMES.length + LEARNED_DIM);
    const golden = JSON.parse(fs.readFileSync(path.join(BACKBONE_DIR, 'golden.json'), 'utf8'));
    expect(golden.version).toBe(net.version);
    const card = fs.readFileSync(path.join(BACKBONE_DIR, 'model-card.md'), 'utf8');
    expect(card).toContain(`**Version** ${net.version}`);
    expect(fs.statSync(path.join(BACKBONE_DIR, 'backbone.onnx')).size).toBeLessThanOrEqual(25 * 1024 * 1024);
  });

  it('reproduces its recorded outputs on fixed images', async () => {
    const golden = JSON.parse(fs.readFileSync(path.join(BACKBONE_DIR, 'golden.json'), 'utf8')) as {
      embeddings: Record<string, number[]>;
    };
    const images = goldenImages();
    const got = await net.embed(
      images.map((g) => netInputOf(g.image)),
      BACKBONE_VIEWS,
    );
    images.forEach((g, i) => {
      const want = golden.embeddings[g.name]!;
      expect(want).toHaveLength(LEARNED_DIM);
      const scale = Math.max(1e-3, ...want.map(Math.abs));
      for (let d = 0; d < want.length; d++) expect(Math.abs(got[i]![d]! - want[d]!)).toBeLessThan(1e-4 * scale);
    });
    // The images differ, so must their embeddings: a network that answers a constant would pass the line above
    // only if it had recorded a constant.
    const spread = got[0]!.reduce((a, v, d) => a + Math.abs(v - got[2]![d]!), 0);
    expect(spread).toBeGreaterThan(0.1);
  });

  it('averaged over its eight views, gives the same embedding to an ROI turned or mirrored', async () => {
    const input = netInputOf(goldenImages()[0]!.image);
    const views = dihedral(input.pixels, NET_SIDE);
    const out = await net.embed(
      views.map((pixels) => ({ pixels, size: input.size })),
      8,
    );
    for (const v of out.slice(1)) for (let d = 0; d < LEARNED_DIM; d++) expect(v[d]).toBeCloseTo(out[0]![d]!, 4);
  });

  it('the recognition vector is the measured features followed by the embedding', async () => {
    const { image } = goldenImages()[1]!;
    const v = await vectorOf(image);
    const [e] = await net.embed([netInputOf(image)], BACKBONE_VIEWS);
    expect(v.values).toHaveLength(VECTOR_NAMES.length);
    expect(Array.from(v.values.subarray(FEATURE_NAMES.length))).toEqual(Array.from(e!));
  });
});

describe('net input', () => {
  it('keeps the aspect, centres the object and stretches its brightness to the 99.5th percentile', () => {
    const { image } = goldenImages()[1]!; // 200 × 40 filament of grey 160 on black
    const { pixels, size } = netInputOf(image);
    expect(size[0]).toBeCloseTo(Math.log(200), 10);
    expect(size[1]).toBeCloseTo(Math.log(40), 10);
    // The stretch is the original's 99.5th percentile: a 4 px line shrunk 3.5 times is dimmer than that.
    expect(Math.max(...pixels)).toBeGreaterThan(150);
    // A flat disc enlarged keeps its full brightness: 255.
    expect(Math.max(...netInputOf(goldenImages()[2]!.image).pixels)).toBe(255);
    // 40 × 0.9 × 64 / 200 ≈ 11.5 rows tall, centred: the top and bottom rows stay black.
    expect(pixels.subarray(0, NET_SIDE * 20).every((v) => v === 0)).toBe(true);
    expect(pixels.subarray(NET_SIDE * 44).every((v) => v === 0)).toBe(true);
  });

  it('an empty or flat image is all zeros', () => {
    const flat = { data: new Uint8Array(30 * 20).fill(90), width: 30, height: 20, channels: 1 };
    expect(netInputOf(flat).pixels.every((v) => v === 0)).toBe(true);
  });
});

const hasTorch = spawnSync(PYTHON, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
if (!hasTorch && !process.env.CI) {
  console.warn(
    `\n*** SKIPPING the backbone training smoke run: ${PYTHON} cannot import torch (apt-get install python3-torch); CI fails instead.\n`,
  );
}

describe.skipIf(!hasTorch && !process.env.CI)('npm run train:backbone (smoke run)', () => {
  it.each([
    ['v2', []],
    // The distilled recipe (a teacher at 96×96, students at 64×64): its long run needs a GPU, its smoke run does not.
    ['distil', ['--recipe', 'distil']],
  ])(
    'recipe %s: prepares a few images, trains a few steps, exports ONNX that the server loads, and writes the model card',
    async (recipe, extra) => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'backbone-smoke-test-'));
      try {
        const res = spawnSync(
          process.execPath,
          ['--import', 'tsx', 'apps/server/src/cli/train-backbone.ts', '--smoke', '--out', out, ...extra],
          {
            cwd: ROOT,
            encoding: 'utf8',
            timeout: 120_000,
          },
        );
        expect(res.status, `${res.stdout}\n${res.stderr}`).toBe(0);
        for (const f of ['backbone.onnx', 'training.json', 'golden.json', 'model-card.md'])
          expect(fs.existsSync(path.join(out, f))).toBe(true);
        const smoke = await Backbone.load(path.join(out, 'backbone.onnx'));
        const training = JSON.parse(fs.readFileSync(path.join(out, 'training.json'), 'utf8'));
        // The embedding, then one score per class the smoke run saw.
        expect(smoke.dim).toBe(EMBEDDING_DIM + (training.classes as string[]).length);
        const [e] = await smoke.embed([netInputOf(goldenImages()[0]!.image)]);
        expect(e!.every(Number.isFinite)).toBe(true);
        await smoke.close();
        expect(training.train_count).toBeGreaterThan(0);
        expect(training.epochs).toHaveLength(1);
        if (recipe === 'distil') {
          // The teacher and both students were trained and measured on the frozen list; the kept one is the first.
          expect(training.phases.teacher.held_8_views.balanced).toBeGreaterThanOrEqual(0);
          expect(training.phases.student_s.parameters).toBeLessThan(training.phases.student_m.parameters);
          expect(training.kept).toBe('s');
          expect(fs.readFileSync(path.join(out, 'model-card.md'), 'utf8')).toContain('teacher');
        }
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
