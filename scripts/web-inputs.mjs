#!/usr/bin/env node
// Whether apps/web/dist was built from the sources as they are now: the web build stamps a hash of its inputs into
// dist, and `npm test` builds again only when the hash differs. CI's `npm run check` builds the console once and the
// end-to-end suite uses that build (it took a minute and a half of every CI run to build it twice).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'apps/web/dist/.inputs-hash');
/** The hash taken before a build starts, moved into dist when it succeeds (vite empties dist first). */
const PENDING = path.join(root, 'apps/web/node_modules/.inputs-hash-pending');
const INPUTS = ['apps/web', 'packages/contracts', 'package-lock.json', 'package.json', 'tsconfig.base.json', '.npmrc'];
const SKIP = new Set(['node_modules', 'dist', '.vite']);

function* files(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) yield entry;
  else if (stat.isDirectory())
    for (const name of fs.readdirSync(entry).sort()) if (!SKIP.has(name)) yield* files(path.join(entry, name));
}

/** A hash over the names and contents of every file the web build reads from this repository. */
export function inputsHash() {
  const hash = crypto.createHash('sha256');
  for (const input of INPUTS)
    for (const file of files(path.join(root, input))) {
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  // What Vite reads from the environment at build time.
  for (const [key, value] of Object.entries(process.env).sort())
    if (key.startsWith('VITE_') || key === 'NODE_ENV') hash.update(`${key}=${value}\0`);
  return hash.digest('hex');
}

export function webBuildIsCurrent() {
  return fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === inputsHash();
}

// The web build runs `--begin` before vite and `--stamp` after it succeeds: the stamp names the sources as they were
// when the build started, so an edit saved during the build is built again next time.
if (process.argv[2] === '--begin') {
  fs.mkdirSync(path.dirname(PENDING), { recursive: true });
  fs.writeFileSync(PENDING, `${inputsHash()}\n`);
}
if (process.argv[2] === '--stamp') fs.renameSync(PENDING, STAMP);
