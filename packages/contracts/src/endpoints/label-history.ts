/** Calls answered by apps/server/src/modules/label-history/label-history.routes.ts. */
import { get } from './define.ts';

export const roiLabelHistory = /* @__PURE__ */ get('/roi/label-history');
