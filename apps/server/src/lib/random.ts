/**
 * The project's one seeded random generator, for everything that must replay: the simulator and the demo history,
 * the classifier's bootstraps and folds, benchmarks and tests. Nothing that must replay uses Math.random.
 */

/** A seeded pseudo-random generator: a function answering uniform numbers in [0, 1). */
export type Rng = () => number;

/**
 * mulberry32: 32 bits of state, tiny and fast; the same seed gives the same sequence. Its period (2^32) is far
 * beyond any draw here, and changing it would change the golden features, the demo data and every trained model.
 */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Mixes integers into one 32-bit seed (order matters), so (device, time bucket, channel) pick stable noise. */
export function hashInts(...values: number[]): number {
  let h = 0x811c9dc5;
  for (const v of values) {
    // Split so values beyond 32 bits (epoch milliseconds, bucket numbers) still mix in fully.
    const lo = v >>> 0;
    const hi = Math.floor(v / 4_294_967_296) >>> 0;
    h = Math.imul(h ^ lo, 0x01000193);
    h = Math.imul(h ^ hi, 0x01000193);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/** A stable uniform number in [0, 1) for the given integers. */
export const unitOf = (...values: number[]): number => mulberry32(hashInts(...values))();

export const between = (rng: Rng, min: number, max: number): number => min + rng() * (max - min);

export const intBetween = (rng: Rng, min: number, max: number): number => Math.floor(between(rng, min, max + 1));

/** Roughly normal (sum of uniforms), mean 0 and standard deviation 1. */
export const gauss = (rng: Rng): number => (rng() + rng() + rng() + rng() - 2) * Math.sqrt(3);

/** Picks a key with probability proportional to its weight. */
export function weighted<K extends string>(rng: Rng, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng() * total;
  for (const [key, w] of entries) {
    roll -= w;
    if (roll < 0) return key;
  }
  return (entries[entries.length - 1] as [K, number])[0];
}
