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

/** Fields of one CSV line (RFC 4180 quoting). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out.map((f) => f.trim());
}

/**
 * Adds the classes that `<dir>/labels.csv` lists for each image (see USAGE) to its folder classes; classes without a
 * folder in the set are ignored. Returns null without a usable labels.csv, else what it changed.
 */
export function applyLabelsCsv(
  dir: string,
  images: Images,
): { file: string; added: number; multi: number; ignored: number } | null {
  const file = path.join(dir, 'labels.csv');
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return null;
  const lines = fs
    .readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const header = csvFields(lines[0] ?? '').map((h) => h.toLowerCase());
  const shaCol = header.indexOf('sha256');
  const pathCol = header.indexOf('path');
  const classCol = header.includes('upstream_classes') ? header.indexOf('upstream_classes') : header.indexOf('classes');
  if (classCol < 0 || (shaCol < 0 && pathCol < 0)) {
    console.error(`eval-classifier: ${file} has no sha256/path and upstream_classes/classes columns: ignored`);
    return null;
  }
  const folders = new Set([...images.values()].flatMap((i) => [...i.labels]));
  const bySha = new Map<string, Set<string>>();
  const byPath = new Map<string, Set<string>>();
  for (const [sha, image] of images) {
    bySha.set(sha, image.labels);
    byPath.set(path.relative(dir, image.file).split(path.sep).join('/'), image.labels);
  }
  let added = 0;
  let ignored = 0;
  for (const line of lines.slice(1)) {
    const f = csvFields(line);
    const labels =
      (shaCol >= 0 ? bySha.get(f[shaCol]!.toLowerCase()) : undefined) ?? (pathCol >= 0 ? byPath.get(f[pathCol]!) : undefined);
    if (!labels) continue;
    for (const cls of (f[classCol] ?? '')
      .split('|')
      .map((c) => c.trim())
      .filter(Boolean)) {
      if (labels.has(cls)) continue;
      if (!folders.has(cls)) {
        ignored++;
        continue;
      }
      labels.add(cls);
      added++;
    }
  }
  const multi = [...images.values()].filter((i) => i.labels.size > 1).length;
  return { file, added, multi, ignored };
}
