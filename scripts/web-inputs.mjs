#!/usr/bin/env node
// Whether apps/web/dist was built from the sources as they are now: the web build stamps a hash of its inputs into
// dist, and `npm test` builds again only when the hash differs. CI's `npm run check` builds the console once and the
// end-to-end suite uses that build (it took a minute and a half of every CI run to build it twice).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'apps/web/dist/.inputs-hash');
const INPUTS = ['apps/web', 'packages/contracts', 'package-lock.json'];
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
  return hash.digest('hex');
}

export function webBuildIsCurrent() {
  return fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === inputsHash();
}

if (process.argv[2] === '--stamp') fs.writeFileSync(STAMP, `${inputsHash()}\n`);
