import { ResultCode, type Role } from '@ipp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext, AuthService } from '../modules/auth/auth.service.ts';
import { AppError } from './app-error.ts';

/**
 * Who may call a route. Every /api route must declare one (checked when the route is added):
 * 'public' needs nothing, 'signed-in' any valid session, a role list one of those roles.
 */
export type Access = 'public' | 'signed-in' | 'device' | readonly Role[];

/** The routes only a team's administrators (and the superadmin) may call. */
export const ADMINS = ['superadmin', 'administrator'] as const satisfies readonly Role[];

/** The instrument behind a device-key request (docs/device-protocol.md). */
export interface DeviceContext {
  id: number;
  dev_id: string;
  group_id: number;
}

export type DeviceAuthenticator = (key: string | undefined) => Promise<DeviceContext>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Set on the few writes the read-only demo account may still make. */
    demoAllowed?: boolean;
    /** A GET that changes data (the spec's set-roi-label-index): the demo is refused it as every other write. */
    writes?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    device: DeviceContext | null;
  }
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError(ResultCode.TOKEN, 'tokenInvalid');
  return request.auth;
}

export function requireDevice(request: FastifyRequest): DeviceContext {
  if (!request.device) throw new AppError(ResultCode.TOKEN, 'deviceKeyInvalid');
  return request.device;
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
  /** The route's schema as registered (test/endpoints.test.ts checks it is the contract's). */
  schema: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeAccess: RouteAccess[];
  }
}

export function registerAccessControl(app: FastifyInstance, auth: AuthService, deviceAuth: DeviceAuthenticator) {
  app.decorateRequest('auth', null);
  app.decorateRequest('device', null);

  // Who may call each route, as declared: the credential tests walk it (test/credentials.test.ts).
  const table: RouteAccess[] = [];
  app.decorate('routeAccess', table);
  app.addHook('onRoute', (route) => {
    const declared = (route.config as { access?: Access } | undefined)?.access;
    if (declared !== undefined) {
      for (const method of [route.method].flat())
        table.push({ method: String(method), url: route.url, access: declared, schema: route.schema });
    }
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    if (route.config?.access === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access: every API route must say who may call it`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const url = request.routeOptions.url;
    // Routes outside the API (static files, docs, not-found) have no access rule; the few calls the spec puts
    // outside the api prefix (uploads, folders/*, enhance) declare one and are checked like API routes.
    const api = url?.startsWith('/api/') === true && !url.startsWith('/api/docs');
    if (!api && config.access === undefined) return;
    const access = config.access;
    if (access === undefined) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
    if (access === 'public') return;
    // Device routes take the device key only; a user token is never accepted there (and vice versa).
    if (access === 'device') {
      const key = request.headers['x-device-key'];
      request.device = await deviceAuth(Array.isArray(key) ? key[0] : key);
      return;
    }
    const token = request.headers['x-token'];
    request.auth = await auth.authenticate(Array.isArray(token) ? token[0] : token);
    const { user } = request.auth;
    if (access !== 'signed-in' && !access.includes(user.role)) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
    if (user.is_demo === 1 && (request.method !== 'GET' || config.writes === true) && !config.demoAllowed) {
      throw new AppError(ResultCode.FORBIDDEN, 'demoReadOnly');
    }
  });
}
