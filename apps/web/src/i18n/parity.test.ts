import { describe, expect, it } from 'vitest';
import en from './en.json';
import zh from './zh.json';

/** Every leaf as "a.b.c" → value. */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof tree !== 'object' || tree === null) {
    out.set(prefix, tree);
    return out;
  }
  for (const [key, value] of Object.entries(tree)) {
    for (const [path, leaf] of leaves(value, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const zhLeaves = leaves(zh);
  const enLeaves = leaves(en);

  it('have the same keys in zh and en', () => {
    expect([...zhLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
  });

  it('are non-empty strings everywhere', () => {
    for (const [key, value] of [...zhLeaves, ...enLeaves]) {
      expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
    }
  });

  it('use the same {{placeholders}} in both languages', () => {
    for (const [key, value] of zhLeaves) {
      expect(placeholders(String(value)), key).toEqual(placeholders(String(enLeaves.get(key))));
    }
  });
});
