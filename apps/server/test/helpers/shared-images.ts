import fs from 'node:fs';
import path from 'node:path';

/** The shared PWSSC image sets (read in place, never copied into the repository). */
export const PWSSC = path.resolve(import.meta.dirname, '../../../../../shared/data/pwssc-spc');
export const PWSSC_MORE = path.resolve(import.meta.dirname, '../../../../../shared/data/pwssc-spc-more');

/** Every `every`-th image of a set, in its labels.csv order, as paths relative to the set; fails when it is missing. */
export function sampledImages(dir: string, every: number): string[] {
  const csv = path.join(dir, 'labels.csv');
  if (!fs.existsSync(csv)) throw new Error(`this test needs the shared images at ${dir}: they are missing`);
  return fs
    .readFileSync(csv, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[0]!)
    .filter((_, i) => i % every === 0);
}
