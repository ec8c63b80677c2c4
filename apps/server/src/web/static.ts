import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built console. Hashed assets are immutable; index.html is never cached, so the
 * web app's version check (spec §4) sees a new build at once. Non-API GETs fall back to index.html.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No web build at ${distDir}: run "npm run build" to serve the console (the API works without it)`);
    return false;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: true,
    index: false,
    // The build writes .br and .gz copies (apps/web/precompress.ts): sent to browsers that accept them.
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
    },
  });
  app.get('/', { config: {} }, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  return true;
}

export function isSpaNavigation(method: string, url: string) {
  return (method === 'GET' || method === 'HEAD') && !url.startsWith('/api/') && url !== '/api';
}
