/** Calls answered by apps/server/src/modules/trends/trends.routes.ts. */
import { get } from './define.ts';

export const ippTelemetryTrend = /* @__PURE__ */ get('/ipp/telemetry-trend');
