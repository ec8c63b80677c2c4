import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside each compressible file of the build, once, at build time: the
 * server sends them to browsers that accept them (@fastify/static preCompressed) instead of the plain file, with no
 * compression work per request.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'ipp-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const full = path.join(dir, e.name);
          return e.isDirectory() ? (e.name === '.vite' ? [] : walk(full)) : [full];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < MIN_BYTES) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}
