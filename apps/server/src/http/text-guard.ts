import type { FastifyInstance } from 'fastify';
import { badParam } from './app-error.ts';

/** The path of the first string holding a NUL character, or null. */
export function nulPath(value: unknown, at: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...at, key];
    const found = nulPath(inner, [...at, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * No text a client sends may hold NUL: PostgreSQL cannot store it ("invalid byte sequence for encoding UTF8: 0x00",
 * found by the route fuzzer as a 500) and no field has a use for it. Refused before validation, naming the field.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const value of [request.params, request.query, request.body]) {
      const found = nulPath(value);
      if (found) throw badParam(found.join('.') || 'body', 'reason.nul');
    }
  });
}
