#!/usr/bin/env node
// No import cycles between files (issue 24: what eslint's import/no-cycle checks), in the server, the web console and the
// contracts, run by `npm run check`. Only run-time imports count: `import type` vanishes when compiled and cannot
// make a module read another half-initialised. Relative imports and the web's `@/` alias are followed; packages are
// not. A cycle is printed as the files around it, and the script exits 1.
//
//   node scripts/no-cycle.mjs            check
//   node scripts/no-cycle.mjs --self-test  prove it finds a planted cycle
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const TREES = [
  { dir: 'apps/server/src', alias: null },
  { dir: 'apps/web/src', alias: 'apps/web/src' },
  { dir: 'packages/contracts/src', alias: null },
];
const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(full);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

function resolve(from, spec, aliasRoot) {
  let base;
  if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else if (aliasRoot && spec.startsWith('@/')) base = path.join(aliasRoot, spec.slice(2));
  else return null;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** file → the files it imports at run time. */
export function importGraph(trees) {
  const graph = new Map();
  for (const { dir, alias } of trees) {
    for (const file of sources(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      const edges = new Set();
      for (const m of text.matchAll(IMPORT)) {
        if (m[2]) continue;
        // `import { type A, type B } from` is type-only too.
        const clause = m[0].match(/\{([^}]*)\}/)?.[1];
        if (clause && !/^\s*(import|export)\s+[^{]*\w\s*,/.test(m[0]) && clause.split(',').every((s) => /^\s*(type\s|$)/.test(s)))
          continue;
        const target = resolve(file, m[3], alias);
        if (target) edges.add(target);
      }
      graph.set(file, edges);
    }
  }
  return graph;
}

/** Every cycle's files, one list per strongly connected group of more than one file (Tarjan). */
export function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v)?.has(v)) out.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

function selfTest() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-cycle-'));
  try {
    fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.ts';\nexport const a = b;\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "import { c } from './c';\nexport const b = c;\n");
    fs.writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a.ts';\nexport const c = () => a;\n");
    fs.writeFileSync(path.join(dir, 'd.ts'), "import type { a } from './a.ts';\nexport const d = 1;\n");
    fs.writeFileSync(
      path.join(dir, 'e.ts'),
      "import { type a } from './a.ts';\nimport { d } from './d.ts';\nexport const e = d;\n",
    );
    const found = cycles(importGraph([{ dir, alias: null }])).map((g) => g.map((f) => path.basename(f)));
    const ok = JSON.stringify(found) === JSON.stringify([['a.ts', 'b.ts', 'c.ts']]);
    console.log(
      ok
        ? 'no-cycle self-test: finds the planted cycle a → b → c → a, and no type-only one'
        : `no-cycle self-test FAILED: ${JSON.stringify(found)}`,
    );
    return ok;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--self-test')) process.exit(selfTest() ? 0 : 1);
const trees = TREES.map((t) => ({ dir: path.join(ROOT, t.dir), alias: t.alias && path.join(ROOT, t.alias) }));
const graph = importGraph(trees);
const found = cycles(graph);
for (const group of found) console.error(`import cycle: ${group.map((f) => path.relative(ROOT, f)).join(' ↔ ')}`);
if (found.length > 0) process.exit(1);
console.log(`no import cycles among ${graph.size} files`);
