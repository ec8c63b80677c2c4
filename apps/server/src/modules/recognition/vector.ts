import { Backbone } from './embedding/backbone.ts';
import { netInputOf } from './embedding/net-input.ts';
import {
  checkPixels,
  FEATURE_NAMES as MEASURED_NAMES,
  decodeImage,
  featuresOfPixels,
  greyOf,
  type RawImage,
  type RoiFeatures,
} from './features.ts';

/**
 * An ROI's recognition vector (docs/recognition.md): the 206 measured features (features.ts) followed by the
 * backbone network's embedding and its own class scores (embedding/backbone.ts). This is what is stored in
 * roi_features, what the per-team models learn from and what re-identification classifies without decoding the
 * image again.
 *
 * VECTOR_VERSION must change whenever the measured features or the committed network change; stored vectors of
 * another version are computed again (a test checks the network against BACKBONE_VERSION).
 */
export const VECTOR_VERSION = 3;
/** The committed network's version (first 12 hex of backbone.onnx's sha256) that VECTOR_VERSION 2 means. */
export const BACKBONE_VERSION = 'f6dab5175ae9';
export const EMBEDDING_DIM = 128;
/** How many of an ROI's turns and mirrors go through the network (their outputs averaged) in VECTOR_VERSION. */
export const BACKBONE_VIEWS: 1 | 8 = 1;
/** The committed network's own class scores: the 33 PWSSC classes of its model card, in that order. */
export const SCORE_DIM = 33;
/** What the network gives per ROI: the embedding, then ln(mean class score + 10⁻⁴). */
export const LEARNED_DIM = EMBEDDING_DIM + SCORE_DIM;
export const VECTOR_NAMES: readonly string[] = Object.freeze([
  ...MEASURED_NAMES,
  ...Array.from({ length: EMBEDDING_DIM }, (_, i) => `embedding${i + 1}`),
  ...Array.from({ length: SCORE_DIM }, (_, i) => `backbone_score${i + 1}`),
]);

let shared: Promise<Backbone> | null = null;
/** The network, loaded once per thread (each feature worker has its own session). */
export function backbone(): Promise<Backbone> {
  shared ??= Backbone.load().catch((err: unknown) => {
    shared = null;
    throw err;
  });
  return shared;
}

/** Releases this thread's network (a feature worker does before it exits). */
export async function releaseBackbone() {
  const loaded = shared;
  shared = null;
  if (loaded) await (await loaded.catch(() => null))?.close();
}

export async function vectorOf(img: RawImage, opts: { threshold?: number; views?: 1 | 8 } = {}): Promise<RoiFeatures> {
  checkPixels(img);
  const grey = greyOf(img);
  const measured = featuresOfPixels(img, { threshold: opts.threshold, grey });
  const net = await backbone();
  if (net.dim !== LEARNED_DIM)
    throw new Error(`backbone ${net.version} gives ${net.dim} numbers, vector ${VECTOR_VERSION} needs ${LEARNED_DIM}`);
  const [learned] = await net.embed([netInputOf(img, undefined, grey)], opts.views ?? BACKBONE_VIEWS);
  const values = new Float32Array(measured.values.length + LEARNED_DIM);
  values.set(measured.values);
  values.set(learned!, measured.values.length);
  return { version: VECTOR_VERSION, values, measures: measured.measures };
}

export async function vectorOfImage(data: Buffer, opts: { threshold?: number } = {}): Promise<RoiFeatures> {
  return vectorOf(await decodeImage(data), opts);
}
