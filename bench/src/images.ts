/**
 * Images for the ingest benchmarks: the real PWSSC plankton PNGs (read in place from ../shared, never copied into the
 * repository), or generated ones where that folder is absent. Every upload must be a different file (the same image
 * again for a station is a retry that stores nothing), so `variant` adds a text chunk numbering the copy: the pixels,
 * and so the server's work, stay those of the real image.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { repoRoot } from './server-process.ts';

export const PWSSC_DIR = path.resolve(repoRoot, '../shared/data/pwssc-spc');

export async function loadImages(max = 200): Promise<{ images: Buffer[]; source: string }> {
  if (fs.existsSync(PWSSC_DIR)) {
    const files: string[] = [];
    for (const dir of fs.readdirSync(PWSSC_DIR, { withFileTypes: true })) {
      if (!dir.isDirectory()) continue;
      for (const f of fs.readdirSync(path.join(PWSSC_DIR, dir.name))) {
        if (f.endsWith('.png')) files.push(path.join(PWSSC_DIR, dir.name, f));
      }
    }
    files.sort();
    // Spread over the classes: every k-th file.
    const step = Math.max(1, Math.floor(files.length / max));
    const picked = files.filter((_, i) => i % step === 0).slice(0, max);
    return { images: picked.map((f) => fs.readFileSync(f)), source: `${picked.length} PWSSC images` };
  }
  const images: Buffer[] = [];
  for (let i = 0; i < Math.min(max, 50); i++) {
    const size = 80 + (i % 5) * 40;
    const raw = Buffer.alloc(size * size);
    for (let p = 0; p < raw.length; p++) raw[p] = (p * 31 + i * 7919) & 0xff;
    images.push(
      await sharp(raw, { raw: { width: size, height: size, channels: 1 } })
        .png()
        .toBuffer(),
    );
  }
  return { images, source: `${images.length} generated images (../shared/data/pwssc-spc not found)` };
}

/** The PNG with a tEXt chunk "copy=<n>" after its header: a different file, the same pixels. */
export function variant(png: Buffer, n: number): Buffer {
  const text = Buffer.from(`copy\0${n}`, 'latin1');
  const chunk = Buffer.alloc(12 + text.length);
  chunk.writeUInt32BE(text.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  text.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(chunk.subarray(4, 8 + text.length)) >>> 0, 8 + text.length);
  // Signature (8) + IHDR (4 length + 4 type + 13 data + 4 crc) = 33 bytes.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

/** multipart/form-data for POST /api/device/rois. */
export function roiMultipart(fields: Record<string, string | number>, file: Buffer) {
  const boundary = '----ipp-bench-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="roi.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
