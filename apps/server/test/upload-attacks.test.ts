import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp } from './helpers/device.ts';

/** A PNG whose header declares width × height, with a tiny compressed body: a decompression bomb's shape. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64 * 1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** multipart/form-data with text fields and one file part under a file name of the caller's choosing. */
function form(fields: Record<string, string | number>, file: Buffer, filename: string, field = 'file') {
  const boundary = '----ipp-attack-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="`, 'latin1'),
    Buffer.from(filename, 'utf8'),
    Buffer.from('"\r\nContent-Type: image/png\r\n\r\n', 'latin1'),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('uploads under attack (ASVS V12)', () => {
  let env: TestEnv;
  let w: World;
  let station: { id: number; key: string };
  let seed = 0;
  const device = (fileBuf: Buffer, filename = 'roi.png', lang = 'en') => {
    const { payload, headers } = form({ captured_at: env.clock.now - 1000, label_index: 1, size_px: 100 }, fileBuf, filename);
    return env.app.inject({
      method: 'POST',
      url: '/api/device/rois',
      payload,
      headers: { ...headers, 'x-lang': lang, 'x-device-key': station.key },
    });
  };
  const roiCount = async () =>
    Number(
      (
        (await env.db.kysely
          .selectFrom('rois')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: number | string }
      ).n,
    );

  beforeEach(async () => {
    env = await buildTestApp('sqlite');
    w = await buildWorld(env);
    station = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
  });
  afterEach(() => env.close());

  it('refuses a decompression bomb by its declared dimensions, before decoding, in both languages, storing nothing', async () => {
    const bomb = pngDeclaring(100_000, 100_000); // 10 gigapixels declared in a few hundred bytes
    expect(bomb.length).toBeLessThan(2000);
    const before = await roiCount();
    const en = await device(bomb);
    // 413 with the dimensions named: the header check answered (a decoder's own pixel limit would have said 415).
    expect(en.statusCode).toBe(413);
    const body = en.json() as { code: number; msg: string; model: { field: string } };
    expect(body.code).toBe(1002);
    expect(body.model.field).toBe('file');
    expect(body.msg).toBe('The image is too large (100000×100000; at most 16M pixels and 8192 per side)');
    const zh = (await device(bomb, 'roi.png', 'zh')).json() as { msg: string };
    expect(zh.msg).toBe('图像尺寸过大（100000×100000，最多 16M 像素，每边最多 8192）');
    // One side past the limit, the other tiny (a real, decodable image).
    const strip = await sharp({ create: { width: 9000, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect((await device(strip)).statusCode).toBe(413);
    expect(await roiCount()).toBe(before);
    expect(filesUnder(path.join(env.config.DATA_DIR, 'blobs'))).toEqual([]);
    // The same on the console's "classify an uploaded image" route.
    const { payload, headers } = form({}, bomb, 'x.png');
    const classify = await env.app.inject({
      method: 'POST',
      url: '/uploads',
      payload,
      headers: { ...headers, 'x-token': w.tokens.ownAdmin, 'x-lang': 'en' },
    });
    expect(classify.statusCode).toBe(413);
    expect((classify.json() as { code: number }).code).toBe(1002);
  });

  it('sniffs the content: a non-image under any name or declared type is 415 and stores nothing', async () => {
    const fakes = [
      Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png at all')]),
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    ];
    for (const fake of fakes) {
      const res = await device(fake, 'image.png');
      expect(res.statusCode).toBe(415);
      expect((res.json() as { code: number; model: { field: string } }).model.field).toBe('file');
    }
    expect(await roiCount()).toBe(0);
    expect(filesUnder(path.join(env.config.DATA_DIR, 'blobs'))).toEqual([]);
  });

  it('never lets a file name reach the filesystem: traversal, encoded traversal, absolute paths, NUL', async () => {
    const outside = path.join(os.tmpdir(), `ipp-evil-${process.pid}.png`);
    fs.rmSync(outside, { force: true });
    const names = [
      `../../../../../../${path.relative('/', outside)}`,
      `%2e%2e%2f%2e%2e%2f${path.basename(outside)}`,
      outside,
      'C:\\Windows\\evil.png',
      'a\u0000b.png',
      '....//....//evil.png',
    ];
    const stored: string[] = [];
    for (const name of names) {
      const png = await pngOf(++seed, 20);
      const res = await device(png, name);
      expect([name, res.statusCode]).toEqual([name, 200]);
      stored.push((res.json() as { data: { sha256: string } }).data.sha256);
    }
    expect(fs.existsSync(outside)).toBe(false);
    // Every file the uploads left is a content-addressed blob: <aa>/<bb>/<sha256>.<variant>, nothing named by a client.
    const files = filesUnder(path.join(env.config.DATA_DIR, 'blobs'));
    expect(files.length).toBe(2 * names.length);
    for (const file of files) expect(file).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.(png|thumb\.webp)$/);
    for (const sha of stored) expect(files).toContain(`${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}.png`);
    expect(filesUnder(env.config.DATA_DIR).filter((f) => !f.startsWith('blobs/') && !f.startsWith('ipp-console.sqlite'))).toEqual(
      [],
    );
  });

  it('takes the site logo only as a real image of sane size, under a fixed name (the logo is public)', async () => {
    const logo = (file: Buffer, filename: string, lang = 'en') => {
      const { payload, headers } = form({}, file, filename);
      return env.app.inject({
        method: 'POST',
        url: '/api/setting/logo',
        payload,
        headers: { ...headers, 'x-lang': lang, 'x-token': w.tokens.superadmin },
      });
    };
    const settingsBefore = await env.db.kysely.selectFrom('settings').selectAll().orderBy('key').execute();
    // A decompression bomb is refused by its header, before any decoder (a browser showing it would hang on it).
    const bomb = await logo(pngDeclaring(100_000, 100_000), 'logo.png', 'zh');
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json()).toMatchObject({ code: 1002, model: { field: 'file' } });
    expect((bomb.json() as { msg: string }).msg).toMatch(/图像尺寸过大/);
    // Non-images under image names: 415.
    for (const fake of [Buffer.from('<svg onload=alert(1)>'), Buffer.from('%PDF-1.7\n'), Buffer.from('GIF89a', 'latin1')]) {
      const res = await logo(fake, 'logo.png');
      expect(res.statusCode).toBe(415);
    }
    // Past 1 MB: 413, before it is looked at.
    expect((await logo(Buffer.concat([await pngOf(1), Buffer.alloc(1024 * 1024 + 10)]), 'big.png')).statusCode).toBe(413);
    expect(await env.db.kysely.selectFrom('settings').selectAll().orderBy('key').execute()).toEqual(settingsBefore);
    expect(filesUnder(env.config.DATA_DIR).filter((f) => !f.startsWith('ipp-console.sqlite'))).toEqual([]);
    // A real image under a hostile name lands at the one fixed path, nowhere else.
    const outside = path.join(os.tmpdir(), `ipp-evil-logo-${process.pid}.png`);
    fs.rmSync(outside, { force: true });
    for (const name of [`../../../../../../${path.relative('/', outside)}`, outside, 'a\u0000b.png', '%2e%2e%2flogo.png']) {
      expect((await logo(await pngOf(++seed, 20), name)).statusCode).toBe(200);
    }
    expect(fs.existsSync(outside)).toBe(false);
    expect(filesUnder(env.config.DATA_DIR).filter((f) => !f.startsWith('ipp-console.sqlite'))).toEqual([
      path.join('branding', 'logo'),
    ]);
  });
});
