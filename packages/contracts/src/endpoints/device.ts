/** Calls answered by apps/server/src/modules/device/device.routes.ts. */
import { get, post } from './define.ts';

export const deviceTelemetry = /* @__PURE__ */ post('/device/telemetry');
export const deviceRois = /* @__PURE__ */ post('/device/rois');
export const deviceConfig = /* @__PURE__ */ get('/device/config');
