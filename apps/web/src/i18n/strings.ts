export type StringTree = { [key: string]: string | StringTree };

/** Every leaf of a string tree as "a.b.c" → text: the keys the translation table lists. */
export function flattenStrings(tree: StringTree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flattenStrings(value, path));
  }
  return out;
}
