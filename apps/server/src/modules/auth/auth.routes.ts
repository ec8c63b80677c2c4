import { LoginBodySchema, LoginResultSchema, LogoutResultSchema, UserInfoSchema, envelopeOf } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { AuthService } from './auth.service.ts';

export const authRoutes = (auth: AuthService): FastifyPluginAsyncZod =>
  async function (app) {
    app.post(
      '/wyrbac/login/login',
      {
        config: { access: 'public' },
        schema: {
          tags: ['session'],
          summary: 'Sign in',
          body: LoginBodySchema,
          response: { 200: envelopeOf(LoginResultSchema) },
        },
      },
      async (request) => ok(await auth.login(request.body.username, request.body.password, request.ip)),
    );

    app.get(
      '/wyrbac/login/user-info',
      {
        config: { access: 'signed-in' },
        schema: { tags: ['session'], summary: 'The signed-in user', response: { 200: envelopeOf(UserInfoSchema) } },
      },
      async (request) => ok(await auth.userInfo(requireAuth(request).user)),
    );

    app.get(
      '/wyrbac/login/logout',
      {
        config: { access: 'signed-in' },
        schema: { tags: ['session'], summary: 'Sign out (ends this session)', response: { 200: envelopeOf(LogoutResultSchema) } },
      },
      async (request) => {
        await auth.logout(requireAuth(request));
        return ok({ ok: true as const });
      },
    );
  };
