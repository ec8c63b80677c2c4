import http from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_LANG, ResultCode } from '@ipp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { failureBody } from './envelope.ts';
import type { MessageKey } from './messages.ts';

/**
 * Errors Node's HTTP parser meets before any route runs: headers over 16 KB (431), a request that did not arrive
 * within REQUEST_BODY_TIMEOUT_MS (408), malformed HTTP (400). Fastify's default answers them with its own JSON; every
 * answer of this server is the envelope (issue 20), so this writes a minimal one. The request's headers were not
 * parsed, so the message is in the default language (zh).
 */
export function clientErrorHandler(bodyTimeoutMs: number) {
  return function (this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, key, params]: [number, MessageKey, Record<string, number>] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'requestTimeout', { seconds: Math.round(bodyTimeoutMs / 1000) }]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headersTooLarge', {}]
          : [400, 'badRequest', {}];
    this.log.debug({ err: error }, `client error answered ${status}`);
    // Only when no answer has started on this socket (as Node's own handler does).
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !pending?.headersSent) {
      const body = JSON.stringify(failureBody(new AppError(ResultCode.BAD_PARAM, key, params), DEFAULT_LANG));
      socket.write(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Referrer-Policy: no-referrer\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/** The Node server options behind REQUEST_BODY_TIMEOUT_MS: whole request within the bound, checked often enough. */
export function httpServerOptions(bodyTimeoutMs: number): http.ServerOptions {
  return {
    requestTimeout: bodyTimeoutMs,
    headersTimeout: Math.min(60_000, bodyTimeoutMs),
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(bodyTimeoutMs / 4))),
  };
}

/**
 * The console page's Content-Security-Policy. Scripts and styles come from the server itself (antd writes its styles
 * into <style> elements, hence 'unsafe-inline' for styles only); images may come from any https/http map tile server
 * (tile URLs are a setting) and from data:/blob: URLs; calls may go to another host (the login page can point the
 * console at one); nobody may frame the page but the console itself.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self' https: http: wss: ws:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * Headers on every answer: no Referer leaves a console page (a sign-in link's ?token= must not travel to tile
 * servers or other sites), no MIME sniffing, no framing by other sites; the console's HTML pages also get the CSP.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'SAMEORIGIN');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !request.url.startsWith('/api/docs')) {
      reply.header('content-security-policy', CONSOLE_CSP);
    }
    return payload;
  });
}

/** A URL with the values of token-like query parameters replaced, for the request log (a sign-in link's ?token=). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  return (
    url.slice(0, q + 1) +
    url.slice(q + 1).replace(/(^|&)((?:[^&=]*?)(?:token|key|password|passwd|secret)(?:[^&=]*))=[^&]*/gi, '$1$2=[redacted]')
  );
}

/** Fastify's request serializer, with the URL redacted. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
