import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const IMAGE = /\.(png|jpe?g|webp|tiff?)$/i;

/** labels: every accepted class; the first one added (the first of its class folders) is its training label. */
export type Images = Map<string, { file: string; labels: Set<string>; bytes: Buffer }>;

/** Every image of a folder-per-class set, one entry per distinct content (sha256), with all its classes. */
export function scan(dir: string): Images {
  const out: Images = new Map();
  const classes = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
  for (const cls of classes) {
    for (const name of fs.readdirSync(path.join(dir, cls)).sort()) {
      if (!IMAGE.test(name)) continue;
      const file = path.join(dir, cls, name);
      const bytes = fs.readFileSync(file);
      const sha = createHash('sha256').update(bytes).digest('hex');
      const seen = out.get(sha);
      if (seen) seen.labels.add(cls);
      else out.set(sha, { file, labels: new Set([cls]), bytes });
    }
  }
  return out;
}
