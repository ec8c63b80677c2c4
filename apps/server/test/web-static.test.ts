import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

const BIG = `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `row ${i}`))};`;

describe('serving the built console', () => {
  let app: FastifyInstance;
  let db: Db;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc.js"></script>');
    fs.writeFileSync(path.join(dist, 'assets/index-abc.js'), 'console.log(1)');
    // What apps/web/precompress.ts writes beside a large asset.
    fs.writeFileSync(path.join(dist, 'assets/big-def.js'), BIG);
    fs.writeFileSync(path.join(dist, 'assets/big-def.js.br'), zlib.brotliCompressSync(BIG));
    fs.writeFileSync(path.join(dist, 'assets/big-def.js.gz'), zlib.gzipSync(BIG));
    db = openDatabase({ dataDir: dist, sqliteFile: ':memory:' });
    await migrateToLatest(db);
    app = await buildApp({ config: testConfig({ WEB_DIST: dist }), db, serveWeb: true });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html uncached at / and for client routes', async () => {
    for (const url of ['/', '/home', '/manage/user?x=1', '/no/such/page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('/assets/index-abc.js');
    }
  });

  it('sends the console page with a CSP no other site can frame, and no Referer leaves it (issue 20)', async () => {
    for (const url of ['/', '/ipp/ipp-view?id=5&token=abc']) {
      const res = await app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      // Map tiles come from a configurable server; images also from data: and blob: URLs.
      expect(csp).toMatch(/img-src 'self' data: blob: https:/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.headers['referrer-policy']).toBe('no-referrer');
    expect(asset.headers['content-security-policy']).toBeUndefined();
  });

  it('serves hashed assets as immutable', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it("sends the build's Brotli or gzip copy to a browser that accepts it, the plain file to one that does not", async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/assets/big-def.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(BIG.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);

    const gz = await app.inject({ method: 'GET', url: '/assets/big-def.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(BIG);

    const plain = await app.inject({ method: 'GET', url: '/assets/big-def.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
  });

  it('still answers unknown API paths with the envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing/here', headers: { 'x-lang': 'en' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 1004 });
  });

  it('never serves files outside the build', async () => {
    for (const url of ['/../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('root:');
    }
  });
});
