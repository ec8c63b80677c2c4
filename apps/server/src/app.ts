import crypto from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { registerAccessControl } from './http/access.ts';
import { registerErrorHandling, registerNotFound } from './http/error-handler.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { hashPassword } from './modules/auth/password.ts';
import { registerWebApp } from './web/static.ts';

export interface BuildOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Serve the built web console (off in API tests). */
  serveWeb?: boolean;
}

/** Builds the whole server as one Fastify instance; main.ts only listens. Tests call this and use app.inject. */
export async function buildApp({ config, db, clock = systemClock, serveWeb = false }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  const auth = new AuthService({
    db,
    clock,
    idleMs: config.SESSION_IDLE_MINUTES * 60_000,
    maxAgeMs: config.SESSION_MAX_HOURS * 3_600_000,
    decoyHash: await hashPassword(crypto.randomBytes(16).toString('hex'), config.SCRYPT_LOG_N),
  });
  registerAccessControl(app, auth);

  const origins = config.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  await app.register(cors, {
    origin: origins.includes('*') ? true : origins,
    allowedHeaders: ['content-type', 'x-token', 'x-lang'],
    maxAge: 600,
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'IPP Console API',
        version: '0.1.0',
        description: 'Every call of the console. Envelope {code, data, model, count, index}; success code 1000.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      await api.register(authRoutes(auth));
    },
    { prefix: '/api' },
  );

  const webServed = serveWeb ? await registerWebApp(app, config.WEB_DIST) : false;
  registerNotFound(app, webServed);
  return app;
}
