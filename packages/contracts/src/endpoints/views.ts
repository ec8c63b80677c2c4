/** Calls answered by apps/server/src/modules/views/views.routes.ts. */
import { get } from './define.ts';

export const viewsRoi24 = /* @__PURE__ */ get('/views/roi24');
export const viewsRoi30 = /* @__PURE__ */ get('/views/roi30');
export const viewsWall = /* @__PURE__ */ get('/views/wall');
export const viewsRois = /* @__PURE__ */ get('/views/rois');
export const dashboardGetLastInsertTime = /* @__PURE__ */ get('/dashboard/get-last-insert-time');
