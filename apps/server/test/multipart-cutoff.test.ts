import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { buildWorld, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp } from './helpers/device.ts';

/** A zip made in memory: entries name → bytes. */
function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** multipart/form-data: text fields, then one file part named "file". */
function form(boundary: string, fields: Record<string, string | number>, file: Buffer, filename = 'roi.png') {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return Buffer.concat(parts);
}

interface RawAnswer {
  status: number | null;
  body: string;
  ms: number;
}

/**
 * A POST over a real socket that declares `declared` bytes of body, sends only `sent`, then ends its side of the
 * connection (what a device losing its link mid-upload looks like). Answers what came back before the server closed
 * the connection, or null status after `waitMs`.
 */
function cutOffPost(
  port: number,
  url: string,
  headers: Record<string, string>,
  sent: Buffer,
  declared: number,
  pauseMs: number,
  waitMs = 8000,
): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: status ? Number(status[1]) : null,
        body: split >= 0 ? text.slice(split + 4) : '',
        ms: Date.now() - started,
      });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => {
      const head = [
        `POST ${url} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Content-Length: ${declared}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(sent, () => setTimeout(() => socket.end(), pauseMs));
    });
  });
}

/** Folders and files under a folder, relative to it. */
function entriesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true }).map(String);
}

/** Files this process holds open whose path passes `keep` (Linux: /proc/self/fd). */
function openFiles(keep: (file: string) => boolean): string[] {
  if (!fs.existsSync('/proc/self/fd')) return [];
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const file = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (keep(file)) out.push(file);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** A temporary import folder as the import named them before issue 20 (os.tmpdir()/ipp-import-XXXXXX). */
const OLD_IMPORT_FOLDER = /^ipp-import-[A-Za-z0-9]{6}$/;

const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), ms))]);

describe.each(dialects)('multipart bodies cut off or malformed, on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let station: { id: number; key: string };
  let port: number;
  let png: Buffer;
  let zip: Buffer;

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    station = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as AddressInfo).port;
    png = await pngOf(1, 200);
    zip = await zipOf({ 'set/141Salpa/a.png': png, 'set/141Salpa/b.png': await pngOf(2, 200) });
  });
  afterEach(() => env.close());

  /** The five upload routes, each with what it needs to get as far as reading its file. */
  const routes = (): {
    url: string;
    headers: Record<string, string>;
    fields: Record<string, string | number>;
    file: Buffer;
  }[] => [
    {
      url: '/api/device/rois',
      headers: { 'x-device-key': station.key },
      fields: { captured_at: env.clock.now - 1000, label_index: 1 },
      file: png,
    },
    { url: '/api/setting/logo', headers: { 'x-token': w.tokens.superadmin! }, fields: {}, file: png },
    {
      url: '/api/upload/index?action=language',
      headers: { 'x-token': w.tokens.superadmin! },
      fields: {},
      file: Buffer.from(`key,zh,en\n${'k'.repeat(40_000)},中,en\n`),
    },
    { url: '/api/roi/import?dev_id=A1&as=hi', headers: { 'x-token': w.tokens.ownAdmin! }, fields: {}, file: zip },
    { url: '/uploads', headers: { 'x-token': w.tokens.ownAdmin! }, fields: {}, file: png },
  ];

  /** What an upload must never leave behind: temporary import folders, and open handles on them. */
  const leftovers = (oldBefore: Set<string>) => [
    ...entriesUnder(path.join(env.config.DATA_DIR, 'tmp')),
    ...fs.readdirSync(os.tmpdir()).filter((n) => OLD_IMPORT_FOLDER.test(n) && !oldBefore.has(n)),
    ...openFiles((f) => f.startsWith(path.join(env.config.DATA_DIR, 'tmp')) || f.includes('/ipp-import-')),
  ];
  const oldFolders = () => new Set(fs.readdirSync(os.tmpdir()).filter((n) => OLD_IMPORT_FOLDER.test(n)));
  const stored = async () => ({
    rois: (await env.db.kysely.selectFrom('rois').select('id').execute()).length,
    blobs: entriesUnder(path.join(env.config.DATA_DIR, 'blobs')).length,
    logo: fs.existsSync(path.join(env.config.DATA_DIR, 'branding')),
  });

  it('refuses a boundary longer than the parser allows with 1002 on every upload route, storing nothing', async () => {
    const boundary = 'b'.repeat(300);
    for (const r of routes()) {
      for (const lang of ['en', 'zh']) {
        const res = await within(
          5000,
          env.app.inject({
            method: 'POST',
            url: r.url,
            payload: form(boundary, r.fields, r.file),
            headers: { ...r.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-lang': lang },
          }),
        );
        if (res === 'no answer') throw new Error(`${r.url}: no answer`);
        expect([r.url, res.statusCode, res.json()]).toMatchObject([
          r.url,
          400,
          {
            code: 1002,
            model: { field: 'body' },
            msg:
              lang === 'en'
                ? 'The upload form is malformed; please choose the file and upload again'
                : '上传的表单格式不正确，请重新选择文件上传',
          },
        ]);
      }
    }
    expect(await stored()).toEqual({ rois: 0, blobs: 0, logo: false });
  });

  it('refuses a form cut off inside its file (the HTTP body complete) with 1002 on every upload route, at once', async () => {
    const before = oldFolders();
    const boundary = '----ipp-cut';
    for (const r of routes()) {
      const full = form(boundary, r.fields, r.file);
      const cut = full.subarray(0, full.length - Math.floor(r.file.length / 2));
      const started = Date.now();
      const res = await within(
        5000,
        env.app.inject({
          method: 'POST',
          url: r.url,
          payload: cut,
          headers: { ...r.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-lang': 'en' },
        }),
      );
      const status = res === 'no answer' ? res : res.statusCode;
      expect([r.url, status]).toEqual([r.url, 400]);
      if (res !== 'no answer') expect(res.json()).toMatchObject({ code: 1002, model: { field: 'body' } });
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect(leftovers(before)).toEqual([]);
    expect(await stored()).toEqual({ rois: 0, blobs: 0, logo: false });
    // The same routes still take a whole form.
    const ok = await env.app.inject({
      method: 'POST',
      url: '/api/roi/import?dev_id=A1&as=hi',
      payload: form(boundary, {}, zip, 'set.zip'),
      headers: { 'x-token': w.tokens.ownAdmin!, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(ok.json()).toMatchObject({ code: 1000, data: { imported: 2 } });
  });

  it('answers a connection cut mid-file with the envelope and keeps nothing: no temporary folder, no open file', async () => {
    const before = oldFolders();
    const boundary = '----ipp-cut';
    for (const r of routes()) {
      const full = form(boundary, r.fields, r.file);
      // Cut at once (the connection is gone before the handler reads) and after a pause (cut while it reads).
      for (const pause of [0, 300]) {
        const answer = await cutOffPost(
          port,
          r.url,
          { ...r.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-lang': 'en' },
          full.subarray(0, full.length - Math.floor(r.file.length / 2)),
          full.length,
          pause,
        );
        expect([r.url, pause, answer.status]).toEqual([r.url, pause, 400]);
        expect(JSON.parse(answer.body)).toMatchObject({ code: 1002 });
        expect(answer.ms).toBeLessThan(3000);
      }
    }
    // The handlers behind those connections finish on their own and release what they held.
    const deadline = Date.now() + 5000;
    while (leftovers(before).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(leftovers(before)).toEqual([]);
    expect(await stored()).toEqual({ rois: 0, blobs: 0, logo: false });
    // And the server still takes uploads.
    const ok = await env.app.inject({
      method: 'POST',
      url: '/api/roi/import?dev_id=A1&as=hi',
      payload: form(boundary, {}, zip, 'set.zip'),
      headers: { 'x-token': w.tokens.ownAdmin!, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(ok.json()).toMatchObject({ code: 1000, data: { imported: 2 } });
  });
});
