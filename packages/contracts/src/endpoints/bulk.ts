/** Calls answered by apps/server/src/modules/identify/bulk.routes.ts. */
import { post } from './define.ts';

export const roiSaveMove = /* @__PURE__ */ post('/roi/save-move');
export const roiOperatorSiteRoi = /* @__PURE__ */ post('/roi/operator-site-roi');
export const roiReIdentify = /* @__PURE__ */ post('/roi/re-identify');
