import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { EP, pathOf } from '@ipp/contracts';
import { BLOB_NAME } from '@ipp/contracts/constants';
import { writeFileDurably, type ImageType } from './files.ts';

export const EXTENSION_OF: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
export const TYPE_OF: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  'enh.png': 'image/png',
};

/**
 * A blob name: the content's SHA-256 and a variant (`png`/`jpg`/`webp` originals, `thumb.webp` thumbnails,
 * `enh.png` contrast-enhanced renderings).
 */

export const sha256Of = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * Content-addressed image storage. Names are derived from the content, so writing the same image twice is
 * harmless and a stored name never changes meaning (served with immutable caching). S3BlobStore (s3-blobs.ts)
 * speaks the S3 protocol behind the same interface.
 */
export interface BlobStore {
  /** Writes and syncs the blob unless it is already there. */
  put(name: string, data: Buffer): Promise<void>;
  get(name: string): Promise<{ data: Buffer; type: string } | null>;
  /**
   * Called once the row naming the blob has committed, where the store's orphan sweep needs it (S3BlobStore): makes
   * sure the blob is still there.
   */
  confirm?(name: string, data: Buffer): Promise<void>;
}

export class FileBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  private pathOf(name: string) {
    const match = BLOB_NAME.exec(name);
    if (!match) throw new Error(`not a blob name: ${name}`);
    const hash = match[1] as string;
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), name);
  }

  async put(name: string, data: Buffer) {
    const target = this.pathOf(name);
    const exists = await fs.stat(target).then(
      (s) => s.size === data.length,
      () => false,
    );
    if (exists) {
      // Claimed for a row about to commit: the orphan sweep (orphans.ts) leaves a file touched within its grace, and
      // puts back one touched after it moved it aside. If the sweep moved it already, the file is written anew.
      try {
        const now = new Date();
        await fs.utimes(target, now, now);
        return;
      } catch {
        // moved aside by the sweep meanwhile
      }
    }
    try {
      await writeFileDurably(target, data);
    } catch (error) {
      // Another writer of the same content got there: the name is the content, so its file is this one.
      if (await holds(target, data)) return;
      throw error;
    }
  }

  async get(name: string) {
    const match = BLOB_NAME.exec(name);
    if (!match) return null;
    try {
      const data = await fs.readFile(this.pathOf(name));
      const ext = (match[2] as string).endsWith('webp') ? 'webp' : (match[2] as string);
      return { data, type: TYPE_OF[ext] ?? 'application/octet-stream' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

/** Whether the file at `target` holds exactly `data`. */
async function holds(target: string, data: Buffer) {
  try {
    return (await fs.readFile(target)).equals(data);
  } catch {
    return false;
  }
}

export const originalName = (sha: string, mime: string) => `${sha}.${EXTENSION_OF[mime as ImageType] ?? 'png'}`;
export const thumbName = (sha: string) => `${sha}.thumb.webp`;
/** Image URLs relative to the API base (spec §7: the client adds the api/ prefix). */
export const blobUrl = (name: string) => pathOf(EP.roiFile, { name }).slice(1);
