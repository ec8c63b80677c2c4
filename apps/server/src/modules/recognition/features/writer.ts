/**
 * Writing the feature vector by name (docs/recognition.md "Features"): each value is placed at its name's position in
 * FEATURE_NAMES, so the code that computes a feature cannot drift from the list that names it.
 */

/** `prefix` + from, `prefix` + (from + 1), … : the names of a group of `n` values. */
export const seq = (prefix: string, n: number, from = 1): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + from}`);

/**
 * Sets the values of one vector by name. It throws on a name that is not in the list, on a name set twice and, at
 * `finish`, on names left unset: a mismatch between the code and the list is a bug, never a silently shifted vector.
 */
export class FeatureWriter {
  readonly values: Float32Array;
  private readonly index: ReadonlyMap<string, number>;
  private readonly names: readonly string[];
  private readonly written: Uint8Array;
  private count = 0;

  constructor(names: readonly string[], index: ReadonlyMap<string, number>) {
    this.names = names;
    this.index = index;
    this.values = new Float32Array(names.length);
    this.written = new Uint8Array(names.length);
  }

  set(name: string, value: number): void {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`feature ${name} is not in FEATURE_NAMES`);
    if (this.written[i]) throw new Error(`feature ${name} is set twice`);
    this.written[i] = 1;
    this.count++;
    this.values[i] = value;
  }

  /** Sets a group: `names[j]` to `values[j]`; both must be as long. */
  setAll(names: readonly string[], values: ArrayLike<number>): void {
    if (values.length !== names.length) {
      throw new Error(`${values.length} values for ${names.length} features (${names[0]}…)`);
    }
    for (let j = 0; j < names.length; j++) this.set(names[j]!, values[j]!);
  }

  /** The vector, once every name has been set. */
  finish(): Float32Array {
    if (this.count !== this.names.length) {
      const missing = this.names.filter((_, i) => !this.written[i]);
      throw new Error(`features not set: ${missing.join(', ')}`);
    }
    return this.values;
  }
}

/** The positions of a list of names, computed once; `writer()` starts a vector. Throws on a duplicate name. */
export function featureLayout(names: readonly string[]) {
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (index.has(name)) throw new Error(`feature ${name} is listed twice`);
    index.set(name, i);
  });
  return { index: index as ReadonlyMap<string, number>, writer: () => new FeatureWriter(names, index) };
}
