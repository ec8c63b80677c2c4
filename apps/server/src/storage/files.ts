import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file so that it is either wholly there or not at all: temp file, fsync, rename, fsync the folder.
 *
 * The temporary name is this writer's own (pid + random), so writers of the same target at once (the same image from
 * a device's retries or from two instruments) never share one: each renames its own complete copy over the target,
 * and the last rename wins with identical bytes where the target is content-addressed. A writer that fails leaves no
 * temporary file behind.
 */
export async function writeFileDurably(target: string, data: Buffer) {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.${crypto.randomBytes(8).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  const dir = await fs.open(path.dirname(target), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The image type from the content's first bytes; the file name and declared type are never trusted. */
export function sniffImage(data: Buffer): ImageType | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}
