import fs from 'node:fs/promises';
import path from 'node:path';
import { BLOB_NAME } from '@ipp/contracts/constants';

/** A writer's temporary file (writeFileDurably and backup copies: name.pid.random.tmp). */
const TEMP = /\.tmp$/;
const BATCH = 500;

export interface SweepResult {
  /** Image files looked at. */
  files: number;
  /** Files deleted: images no ROI names any more, and temporary files a crash left behind. */
  deleted: number;
  bytes: number;
}

/**
 * The orphan sweep of the image folder (docs/reliability.md "Orphan files"). An image file is an orphan when no ROI
 * row names its content hash: an ingest that crashed between writing the files and committing the row, or ROIs
 * purged from the recycle bin (their files stay until this sweep, as another station may hold the same image).
 *
 * It never deletes a file an ingest is about to commit a row for:
 * - only files last touched more than `graceMs` ago are candidates (a new file is written seconds before its row);
 * - an ingest of an image whose file already exists touches the file's time first (FileBlobStore.put), and the sweep
 *   moves a candidate aside (an atomic rename), then looks at its time again: touched since, it goes back; and asks
 *   the database again: named since, it goes back. An ingest that touches after the move finds no file and writes it
 *   anew.
 */
export async function sweepOrphanFiles(
  root: string,
  referenced: (hashes: string[]) => Promise<Set<string>>,
  graceMs: number,
  now: () => number,
): Promise<SweepResult> {
  const result: SweepResult = { files: 0, deleted: 0, bytes: 0 };
  for (const a of await dirs(root)) {
    for (const b of await dirs(path.join(root, a))) {
      const folder = path.join(root, a, b);
      const byHash = new Map<string, string[]>();
      for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
        const file = path.join(folder, name);
        if (TEMP.test(name) || name.endsWith('.sweep')) {
          // A partial write (or a sweep interrupted between its move and its decision) older than the grace.
          const stat = await fs.stat(file).catch(() => null);
          if (stat && now() - stat.mtimeMs > graceMs) {
            if (name.endsWith('.sweep')) await moveBack(file, referenced, result);
            else if (await remove(file)) count(result, stat.size);
          }
          continue;
        }
        const match = BLOB_NAME.exec(name);
        if (!match) continue;
        result.files++;
        const hash = match[1]!;
        byHash.set(hash, [...(byHash.get(hash) ?? []), file]);
      }
      const hashes = [...byHash.keys()];
      for (let i = 0; i < hashes.length; i += BATCH) {
        const part = hashes.slice(i, i + BATCH);
        const named = await referenced(part);
        for (const hash of part) {
          if (named.has(hash)) continue;
          for (const file of byHash.get(hash)!) await sweepOne(file, hash, referenced, graceMs, now, result);
        }
      }
    }
  }
  return result;
}

async function sweepOne(
  file: string,
  hash: string,
  referenced: (hashes: string[]) => Promise<Set<string>>,
  graceMs: number,
  now: () => number,
  result: SweepResult,
) {
  const before = await fs.stat(file).catch(() => null);
  if (!before || now() - before.mtimeMs <= graceMs) return;
  const aside = `${file}.sweep`;
  try {
    await fs.rename(file, aside);
  } catch {
    return; // gone meanwhile
  }
  const after = await fs.stat(aside).catch(() => null);
  const touched = !after || after.mtimeMs !== before.mtimeMs;
  if (touched || (await referenced([hash])).has(hash)) {
    await fs.rename(aside, file).catch(() => undefined);
    return;
  }
  if (await remove(aside)) count(result, after.size);
}

/** A file left moved aside by an interrupted sweep: back if its ROI exists after all, else deleted. */
async function moveBack(aside: string, referenced: (hashes: string[]) => Promise<Set<string>>, result: SweepResult) {
  const name = path.basename(aside, '.sweep');
  const match = BLOB_NAME.exec(name);
  if (match && (await referenced([match[1]!])).has(match[1]!)) {
    await fs.rename(aside, path.join(path.dirname(aside), name)).catch(() => undefined);
    return;
  }
  const stat = await fs.stat(aside).catch(() => null);
  if (stat && (await remove(aside))) count(result, stat.size);
}

async function dirs(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && /^[0-9a-f]{2}$/.test(e.name)).map((e) => e.name);
}

async function remove(file: string) {
  try {
    await fs.unlink(file);
    return true;
  } catch {
    return false;
  }
}

function count(result: SweepResult, bytes: number) {
  result.deleted++;
  result.bytes += bytes;
}
