import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { csvFields, type Images } from './image-sets.ts';

/**
 * The balanced held-out set (docs/recognition.md, "Measuring"): at most 20 images per class that no model, backbone
 * or head, is trained on. Drawn once by `npm run held-out:draw` and frozen in the repository as a list of hashes,
 * so every figure of every later model is measured on the same images.
 */
export const HELD_OUT_FILE = path.resolve(import.meta.dirname, '../../models/held-out.json');
export const PER_CLASS = 20;
/** The share of a class's images it may hold out: a rare class keeps three quarters to train on. */
export const MAX_SHARE = 0.25;
/** The natural-mix held-out split of `npm run train:backbone`: the images of later sets in the first 0.2 of the hash space. */
export const NATURAL_HOLDOUT = 0.2;

export interface HeldOutImage {
  sha256: string;
  class: string;
  /** The set it comes from: its folder name (pwssc-spc, pwssc-spc-more). */
  set: string;
}

export interface HeldOut {
  rule: string;
  per_class: number;
  max_share: number;
  images: HeldOutImage[];
}

/** Position of a hash in [0, 1): its first 32 bits. */
export const hashPosition = (sha: string) => parseInt(sha.slice(0, 8), 16) / 2 ** 32;

export interface LabelledSet {
  name: string;
  images: Images;
  /** Every class labels.csv lists for an image (sha256 → classes), besides its folder. */
  upstream: Map<string, string[]>;
}

/** labels.csv's upstream classes per sha256 (empty without the file). */
export function upstreamClasses(dir: string): Map<string, string[]> {
  const file = path.join(dir, 'labels.csv');
  const out = new Map<string, string[]>();
  if (!fs.existsSync(file)) return out;
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
  const header = csvFields(lines[0]!);
  const sha = header.indexOf('sha256');
  const classes = header.indexOf('upstream_classes');
  if (sha < 0 || classes < 0) return out;
  for (const line of lines.slice(1)) {
    const f = csvFields(line);
    out.set(f[sha]!, f[classes]!.split('|').filter(Boolean));
  }
  return out;
}

/**
 * The draw. Candidates are the images with exactly one class (in every folder they sit in and in labels.csv), each
 * counted once. For each class, in this order: images of a later set in the natural held-out hash range (already
 * never trained on), then the other images of later sets, then those of the first set, each by sha256. A class
 * gives min(20, ⌊25% of its images⌋).
 */
export function drawHeldOut(sets: LabelledSet[]): HeldOut {
  const byClass = new Map<string, { sha: string; rank: number; set: string }[]>();
  const total = new Map<string, number>();
  const classesOf = new Map<string, Set<string>>();
  const firstSet = new Map<string, string>();
  sets.forEach((s, setIndex) => {
    for (const [sha, image] of s.images) {
      const classes = classesOf.get(sha) ?? new Set<string>();
      for (const l of image.labels) classes.add(l);
      for (const l of s.upstream.get(sha) ?? []) classes.add(l);
      classesOf.set(sha, classes);
      if (!firstSet.has(sha)) {
        firstSet.set(sha, `${setIndex}`);
        const cls = [...image.labels][0]!;
        total.set(cls, (total.get(cls) ?? 0) + 1);
      }
    }
  });
  for (const [sha, setIndex] of firstSet) {
    const classes = classesOf.get(sha)!;
    if (classes.size !== 1) continue;
    const cls = [...classes][0]!;
    const index = Number(setIndex);
    const rank = index === 0 ? 2 : hashPosition(sha) < NATURAL_HOLDOUT ? 0 : 1;
    const list = byClass.get(cls) ?? [];
    list.push({ sha, rank, set: sets[index]!.name });
    byClass.set(cls, list);
  }
  const images: HeldOutImage[] = [];
  for (const cls of [...byClass.keys()].sort()) {
    const k = Math.min(PER_CLASS, Math.floor((total.get(cls) ?? 0) * MAX_SHARE));
    const picked = byClass
      .get(cls)!
      .sort((a, b) => a.rank - b.rank || (a.sha < b.sha ? -1 : 1))
      .slice(0, k);
    for (const p of picked) images.push({ sha256: p.sha, class: cls, set: p.set });
  }
  return {
    rule: 'Per class, min(20, floor(25% of its distinct images)) of the images with exactly one class: first those of later sets whose sha256 falls in the first 0.2 of the hash space, then the other images of later sets, then the first set’s, each in sha256 order.',
    per_class: PER_CLASS,
    max_share: MAX_SHARE,
    images,
  };
}

export function loadHeldOut(file = HELD_OUT_FILE): HeldOut {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as HeldOut;
}

/** The digest of the frozen list (the model card names it: the network was trained without these images). */
export function heldOutDigest(heldOut: HeldOut): string {
  const lines = heldOut.images.map((i) => `${i.sha256} ${i.class}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12);
}
