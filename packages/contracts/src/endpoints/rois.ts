/** Calls answered by apps/server/src/modules/rois/rois.routes.ts. */
import { get, post } from './define.ts';

export const roiGetSiteRoi = /* @__PURE__ */ get('/roi/get-site-roi');
export const roiExportSiteData = /* @__PURE__ */ get('/roi/export-site-data');
export const roiGetRoiDetails = /* @__PURE__ */ get('/roi/get-roi-details');
export const roiSetFavorite = /* @__PURE__ */ post('/roi/set-favorite');
export const roiFile = /* @__PURE__ */ get('/roi/file/:name');
