import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

describe('serving the built console', () => {
  let app: FastifyInstance;
  let db: Db;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc.js"></script>');
    fs.writeFileSync(path.join(dist, 'assets/index-abc.js'), 'console.log(1)');
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

  it('serves hashed assets as immutable', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
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
