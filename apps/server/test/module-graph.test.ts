/**
 * The server's modules (src/modules/<name>/) form no loop: no module imports, directly or through others, a module
 * that imports it back. A loop is how "one rule in one place" decays (auth ↔ users ↔ teams ↔ ipps ↔ device was one);
 * shared rules go down a layer instead (modules/access, src/security, src/db/query-helpers.ts). Type-only imports
 * are left out: they vanish at run time and carry no behaviour.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTs, sourceFiles } from './helpers/sources.ts';

const MODULES = path.resolve(import.meta.dirname, '../src/modules');

const sourcesOf = (dir: string) => sourceFiles(dir, isTs);

/** module → the other modules its files import at run time, with one importing file for each edge. */
export function moduleGraph(root = MODULES): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const name of fs.readdirSync(root)) {
    if (!fs.statSync(path.join(root, name)).isDirectory()) continue;
    const edges = new Map<string, string>();
    for (const file of sourcesOf(path.join(root, name))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
        if (m[2]) continue; // `import type` / `export type`
        const spec = m[3]!;
        if (!spec.startsWith('.')) continue;
        const target = path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep)[0]!;
        if (target !== name && !target.startsWith('..')) edges.set(target, path.relative(root, file));
      }
    }
    graph.set(name, edges);
  }
  return graph;
}

/** One loop, as the list of modules around it, or null. */
export function findLoop(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const loop = visit(next);
        if (loop) return loop;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const loop = visit(node);
    if (loop) return loop;
  }
  return null;
}

describe('server module graph', () => {
  it('has no loop between modules', () => {
    const graph = moduleGraph();
    expect(graph.size).toBeGreaterThan(20);
    const loop = findLoop(graph);
    const described = loop?.slice(1).map((to, i) => `${loop[i]} → ${to} (${graph.get(loop[i]!)!.get(to)})`);
    expect(described ?? []).toEqual([]);
  });

  it('finds a loop when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x.ts']])],
      ['b', new Map([['c', 'b/y.ts']])],
      ['c', new Map([['a', 'c/z.ts']])],
      ['d', new Map()],
    ]);
    expect(findLoop(graph)).toEqual(['a', 'b', 'c', 'a']);
    graph.get('c')!.delete('a');
    expect(findLoop(graph)).toBeNull();
  });
});
