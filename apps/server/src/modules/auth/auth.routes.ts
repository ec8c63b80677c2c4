import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { AuthService } from './auth.service.ts';

export const authRoutes = (auth: AuthService): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.wyrbacLoginLogin, { tags: ['session'], summary: 'Sign in' }),
      config: { access: 'public' },
      handler: async (request) => {
        const token = request.headers['x-token'];
        const { username, password } = request.body;
        return ok(await auth.login(username, password, request.ip, Array.isArray(token) ? token[0] : token));
      },
    });

    app.route({
      ...endpoint(API.wyrbacLoginUserInfo, { tags: ['session'], summary: 'The signed-in user' }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await auth.userInfo(requireAuth(request).user)),
    });

    app.route({
      ...endpoint(API.wyrbacLoginLogout, { tags: ['session'], summary: 'Sign out (ends this session)' }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        await auth.logout(requireAuth(request));
        return ok({ ok: true as const });
      },
    });
  };
