import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { dihedral, NET_SIDE, type NetInput } from './net-input.ts';

/** Where the committed backbone lives (`npm run train:backbone` writes it; docs/recognition.md "Backbone"). */
export const BACKBONE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../models/backbone');
export const BACKBONE_FILE = path.join(BACKBONE_DIR, 'backbone.onnx');

/** Added to the mean class score before its logarithm, so that a score of 0 stays finite. */
const SCORE_FLOOR = 1e-4;

/**
 * The learned feature extractor: an ONNX network run by onnxruntime-node on the CPU. An ROI's embedding is the mean
 * of the network's output over the eight turns and mirrors of its input (plankton have no up or down).
 */
export class Backbone {
  private constructor(
    private readonly session: ort.InferenceSession,
    /** Identifies the weights: stored embeddings of another version are computed again. */
    readonly version: string,
    /** Numbers per ROI: the embedding, then ln of the network's class scores. */
    readonly dim: number,
  ) {}

  static async load(file = BACKBONE_FILE, threads = 1): Promise<Backbone> {
    const bytes = fs.readFileSync(file);
    const session = await ort.InferenceSession.create(bytes, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
    });
    const version = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    const probe = await run(session, [{ pixels: new Uint8Array(NET_SIDE * NET_SIDE), size: [0, 0] }], 1);
    return new Backbone(session, version, probe[0]!.length);
  }

  /**
   * One feature vector per input: the embedding and ln(mean class score + 10⁻⁴), each averaged over the input's
   * eight dihedral copies (views 8), or of the input as it is (views 1: an eighth of the cost, issue 38).
   */
  async embed(inputs: NetInput[], views: 1 | 8 = 8): Promise<Float32Array[]> {
    return run(this.session, inputs, views);
  }

  async close() {
    await this.session.release();
  }
}

async function run(session: ort.InferenceSession, inputs: NetInput[], copies: number): Promise<Float32Array[]> {
  if (inputs.length === 0) return [];
  const side = NET_SIDE;
  const plane = side * side;
  const n = inputs.length * copies;
  const image = new Float32Array(n * plane);
  const size = new Float32Array(n * 2);
  inputs.forEach((input, i) => {
    const views = copies === 1 ? [input.pixels] : dihedral(input.pixels, side);
    views.forEach((v, t) => {
      const at = (i * copies + t) * plane;
      for (let k = 0; k < plane; k++) image[at + k] = v[k]! / 255;
      size[(i * copies + t) * 2] = input.size[0];
      size[(i * copies + t) * 2 + 1] = input.size[1];
    });
  });
  const out = await session.run({
    image: new ort.Tensor('float32', image, [n, 1, side, side]),
    size: new ort.Tensor('float32', size, [n, 2]),
  });
  // The embedding, then (networks since vector 2) ln of the network's own class scores: both averaged over copies.
  const parts = [out.embedding!, out.scores].filter((t): t is ort.Tensor => t !== undefined);
  const dims = parts.map((t) => Number(t.dims[1]));
  const dim = dims.reduce((a, b) => a + b, 0);
  const result: Float32Array[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const v = new Float32Array(dim);
    let offset = 0;
    parts.forEach((t, k) => {
      const data = t.data as Float32Array;
      const d = dims[k]!;
      for (let c = 0; c < copies; c++) {
        const at = (i * copies + c) * d;
        for (let j = 0; j < d; j++) v[offset + j]! += data[at + j]!;
      }
      for (let j = 0; j < d; j++) v[offset + j]! /= copies;
      if (k === 1) for (let j = 0; j < d; j++) v[offset + j] = Math.log(v[offset + j]! + SCORE_FLOOR);
      offset += d;
    });
    result.push(v);
  }
  return result;
}
