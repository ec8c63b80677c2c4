import { afterEach, describe, expect, it } from 'vitest';
import { buildWorld, call } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

const TOKEN = 'scrape-token-0123456789';

/** Issue 40, item 8: liveness, readiness and Prometheus metrics for whoever runs the server. */
describe.each(dialects)('health and metrics on %s', (dialect) => {
  let env: TestEnv;
  afterEach(() => env?.close());

  const scrape = (headers: Record<string, string> = {}, remoteAddress?: string) =>
    env.app.inject({ method: 'GET', url: '/metrics', headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('answers liveness and readiness without a session', async () => {
    env = await buildTestApp(dialect);
    const live = await env.app.inject({ method: 'GET', url: '/healthz' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await env.app.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }]);
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('has no /metrics unless a token or an allow-list is set', async () => {
    env = await buildTestApp(dialect);
    expect((await scrape()).statusCode).toBe(404);
  });

  it('answers /metrics to the token or an allowed address only, with requests, ingest and gauges', async () => {
    env = await buildTestApp(dialect, { config: { METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.1.2.3' } });
    const w = await buildWorld(env);
    const ipp = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    expect((await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 10 })).statusCode).toBe(200);
    await call(env, w.tokens.user, 'GET', '/api/alarm/list');
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(401);
    // A forwarded header is not an address.
    expect((await scrape({ 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(401);
    const [byToken, byAddress] = await Promise.all([scrape({ authorization: `Bearer ${TOKEN}` }), scrape({}, '10.1.2.3')]);
    expect([byToken.statusCode, byAddress.statusCode]).toEqual([200, 200]);
    expect(byToken.headers['content-type']).toContain('text/plain; version=0.0.4');
    const text = byToken.body;
    expect(text).toMatch(/^ipp_http_requests_total\{method="GET",route="\/api\/alarm\/list",status="200"\} 1$/m);
    expect(text).toMatch(/^ipp_http_requests_total\{method="POST",route="\/api\/device\/telemetry",status="200"\} 1$/m);
    expect(text).toMatch(/^ipp_http_request_duration_seconds_count\{route="\/api\/alarm\/list"\} 1$/m);
    expect(text).toMatch(/^ipp_ingest_rois_total\{result="acknowledged"\} 0$/m);
    expect(text).toMatch(/^ipp_jobs\{status="queued"\} 0$/m);
    expect(text).toMatch(/^ipp_alarm_outbox\{channel="webhook",state="pending"\} 0$/m);
    expect(text).toMatch(/^ipp_live_streams 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    if (dialect === 'postgres') expect(text).toMatch(/^ipp_db_pool_connections\{state="total"\} \d+$/m);
    // Every sample line is "name{labels} number" or "name number" (what a Prometheus parser takes).
    for (const line of text
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_][a-z0-9_]*(\{[^}]*\})? -?[\d.e+-]+$/);
  });
});
