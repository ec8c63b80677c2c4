#!/usr/bin/env node
// The web bundle's budget (issue 7), checked by `npm run check` after a build:
// - the JavaScript a browser needs for the sign-in page and the console's shell (the entry, the login page and the
//   main layout, with everything they import statically) stays within BUDGET_KB of gzip;
// - ECharts and Leaflet sit in chunks of their own, loaded only by dynamic import (no chunk imports them statically,
//   so they are never in the shell).
// Reads Vite's manifest (apps/web/dist/.vite/manifest.json); `npm run budget` prints the figures.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const BUDGET_KB = 300;
/** Manifest keys of the sign-in page and the shell, besides the entry (index.html). */
export const SHELL_ROOTS = ['index.html', 'src/features/auth/pages/login-page.tsx', 'src/app/layout/main-layout.tsx'];
/**
 * Chunks loaded on demand as the console starts, by chunk name, outside the budget but printed beside it: the strings
 * of the language in use (the first render waits for them; the larger language is counted) and the start-up calls'
 * contract schemas with zod (loaded while those calls are in flight).
 */
export const AT_START = {
  'strings of one language': ['zh', 'en'],
  'start-up schemas with zod': ['shell-schemas'],
};
/** Heavy libraries that must stay out of the shell: a manifest key (their wrapper module) each. */
export const HEAVY = { ECharts: 'src/lib/echarts.ts', Leaflet: 'src/components/station-map/leaflet-map.ts' };

/** Every manifest key reachable from `roots` through static imports. */
export function staticClosure(manifest, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop();
    if (seen.has(key)) continue;
    if (!manifest[key]) throw new Error(`bundle budget: ${key} is not in the build's manifest`);
    seen.add(key);
    for (const next of manifest[key].imports ?? []) stack.push(next);
  }
  return seen;
}

/**
 * The shell's files with their gzip sizes, and every rule broken. `sizeOf(file)` answers a built file's gzip bytes.
 */
export function analyse(manifest, sizeOf, budgetKb = BUDGET_KB) {
  const problems = [];
  const keys = staticClosure(manifest, SHELL_ROOTS);
  const files = [...new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))];
  const sized = files.map((file) => ({ file, gzip: sizeOf(file) })).sort((a, b) => b.gzip - a.gzip);
  const total = sized.reduce((sum, f) => sum + f.gzip, 0);
  if (total > budgetKb * 1024) {
    problems.push(`sign-in + shell JavaScript is ${(total / 1024).toFixed(1)} KB gzip, over the budget of ${budgetKb} KB`);
  }
  for (const [name, key] of Object.entries(HEAVY)) {
    const chunk = manifest[key];
    if (!chunk) {
      problems.push(`${name}: ${key} is not a chunk of its own any more (expected a dynamic import of it)`);
      continue;
    }
    if (keys.has(key)) problems.push(`${name} (${chunk.file}) is loaded with the sign-in page or the shell`);
    const importers = Object.entries(manifest)
      .filter(([, c]) => (c.imports ?? []).includes(key))
      .map(([k]) => k);
    if (importers.length > 0) problems.push(`${name} is imported statically by ${importers.join(', ')}`);
  }
  const loaders = Object.fromEntries(
    Object.entries(HEAVY).map(([name, key]) => [
      name,
      Object.entries(manifest)
        .filter(([, c]) => (c.dynamicImports ?? []).includes(key))
        .map(([k]) => k),
    ]),
  );
  // What each AT_START group adds to the shell: the largest of its alternatives, without the files the shell has.
  const atStart = Object.fromEntries(
    Object.entries(AT_START).map(([name, chunkNames]) => {
      const extra = chunkNames
        .map((chunkName) => Object.keys(manifest).find((key) => manifest[key].name === chunkName))
        .filter((key) => key !== undefined)
        .map((key) =>
          [...staticClosure(manifest, [key])]
            .filter((k) => !keys.has(k))
            .map((k) => manifest[k].file)
            .filter((f) => f.endsWith('.js'))
            .reduce((sum, f) => sum + sizeOf(f), 0),
        );
      return [name, Math.max(0, ...extra)];
    }),
  );
  return { total, files: sized, loaders, atStart, problems };
}

function main() {
  const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile)) {
    console.error(`bundle budget: ${manifestFile} is missing; run npm run build first`);
    return 1;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const result = analyse(manifest, (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length);
  console.log(
    `bundle budget: sign-in + shell JavaScript ${(result.total / 1024).toFixed(1)} KB gzip of ${BUDGET_KB} KB ` +
      `(${result.files.length} files; largest ${result.files
        .slice(0, 3)
        .map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`)
        .join(', ')})`,
  );
  for (const [name, from] of Object.entries(result.loaders))
    console.log(`  ${name} loaded on demand by ${from.join(', ') || 'nothing'}`);
  for (const [name, gzip] of Object.entries(result.atStart))
    console.log(`  also loaded at start, outside the budget: ${name}, ${(gzip / 1024).toFixed(1)} KB gzip`);
  // What a browser really downloads for the sign-in page: the shell and the at-start chunks, as the server sends them
  // (the build's Brotli copies, apps/web/precompress.ts).
  const brotli = analyse(manifest, (file) => {
    const copy = path.join(dist, `${file}.br`);
    return fs.existsSync(copy) ? fs.statSync(copy).size : zlib.brotliCompressSync(fs.readFileSync(path.join(dist, file))).length;
  });
  const withStart = (r) => r.total + Object.values(r.atStart).reduce((a, b) => a + b, 0);
  console.log(
    `  sign-in + shell with what loads at start: ${(withStart(result) / 1024).toFixed(1)} KB gzip, ` +
      `${(withStart(brotli) / 1024).toFixed(1)} KB as sent (Brotli)`,
  );
  for (const problem of result.problems) console.error(`bundle budget: FAILED: ${problem}`);
  if (result.problems.length > 0)
    console.error('bundle budget: the largest files of the shell are listed above; npm run build writes the manifest read here');
  return result.problems.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
