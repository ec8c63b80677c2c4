import { BLOB_NAME } from '@ipp/contracts/constants';
import type { SweepResult } from './orphans.ts';

/** What the sweep needs of a bucket (S3BlobStore.objects()), by full object key. */
export interface BucketObjects {
  /** Every object under the store's prefix, a page at a time. */
  list(): AsyncIterable<{ key: string; modified: number; size: number }[]>;
  /** The object's last-modified time (ms), or null when there is none. */
  modified(key: string): Promise<number | null>;
  /** Server-side copy; false when the source is gone. */
  copy(from: string, to: string): Promise<boolean>;
  remove(key: string): Promise<void>;
}

const ASIDE = '.sweep';
const BATCH = 500;

/**
 * The orphan sweep of an S3-protocol bucket (docs/reliability.md "Orphan files"): the same rule as the file store's
 * (orphans.ts) — an image no ROI row names, last written longer than `graceMs` ago, is deleted — with a different
 * guard, since S3 has no atomic rename to claim with:
 * - an ingest writes its images even when the bucket has them (S3BlobStore.put), renewing their last-modified time,
 *   so a candidate is looked at again (HEAD) just before the sweep acts, and left alone if written within the grace;
 * - the sweep copies the candidate aside, asks the database, deletes it, and asks again: a row committed meanwhile
 *   gets its image copied back from the aside copy;
 * - an ingest whose row commits after that second question checks, after its commit, that its images are still
 *   there (S3BlobStore.confirm) and writes them again if not;
 * - aside copies left by a sweep that was stopped mid-way are put back (their ROI exists) or deleted by the next one.
 */
export async function sweepOrphanObjects(
  bucket: BucketObjects,
  referenced: (hashes: string[]) => Promise<Set<string>>,
  graceMs: number,
  now: () => number,
): Promise<SweepResult> {
  const result: SweepResult = { files: 0, deleted: 0, bytes: 0 };
  for await (const page of bucket.list()) {
    const byHash = new Map<string, { key: string; size: number }[]>();
    for (const object of page) {
      const name = object.key.slice(object.key.lastIndexOf('/') + 1);
      if (name.endsWith(ASIDE)) {
        if (now() - object.modified > graceMs) await finishAside(bucket, object, referenced, result);
        continue;
      }
      const match = BLOB_NAME.exec(name);
      if (!match) continue;
      result.files++;
      if (now() - object.modified <= graceMs) continue;
      const hash = match[1]!;
      byHash.set(hash, [...(byHash.get(hash) ?? []), object]);
    }
    const hashes = [...byHash.keys()];
    for (let i = 0; i < hashes.length; i += BATCH) {
      const part = hashes.slice(i, i + BATCH);
      const named = await referenced(part);
      for (const hash of part) {
        if (named.has(hash)) continue;
        for (const object of byHash.get(hash)!) await sweepOne(bucket, object, hash, referenced, graceMs, now, result);
      }
    }
  }
  return result;
}

async function sweepOne(
  bucket: BucketObjects,
  object: { key: string; size: number },
  hash: string,
  referenced: (hashes: string[]) => Promise<Set<string>>,
  graceMs: number,
  now: () => number,
  result: SweepResult,
) {
  // Written again since the listing (an ingest of the same image): no longer a candidate.
  const modified = await bucket.modified(object.key);
  if (modified === null || now() - modified <= graceMs) return;
  const aside = object.key + ASIDE;
  if (!(await bucket.copy(object.key, aside))) return;
  if ((await referenced([hash])).has(hash)) {
    await bucket.remove(aside);
    return;
  }
  await bucket.remove(object.key);
  if ((await referenced([hash])).has(hash)) {
    // A row committed between the two questions: its image goes back.
    await bucket.copy(aside, object.key);
    await bucket.remove(aside);
    return;
  }
  await bucket.remove(aside);
  result.deleted++;
  result.bytes += object.size;
}

/** An aside copy a stopped sweep left: back in place if its ROI exists and the image is missing, else deleted. */
async function finishAside(
  bucket: BucketObjects,
  aside: { key: string; size: number },
  referenced: (hashes: string[]) => Promise<Set<string>>,
  result: SweepResult,
) {
  const key = aside.key.slice(0, -ASIDE.length);
  const match = BLOB_NAME.exec(key.slice(key.lastIndexOf('/') + 1));
  if (match && (await referenced([match[1]!])).has(match[1]!)) {
    if ((await bucket.modified(key)) === null) await bucket.copy(aside.key, key);
    await bucket.remove(aside.key);
    return;
  }
  await bucket.remove(aside.key);
  result.deleted++;
  result.bytes += aside.size;
}
