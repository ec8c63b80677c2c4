/** Calls answered by apps/server/src/modules/identify/identify.routes.ts. */
import { get } from './define.ts';

export const roiCategorys = /* @__PURE__ */ get('/roi/categorys');
export const roiIndexIndex = /* @__PURE__ */ get('/roi-index/index');
export const roiIndex = /* @__PURE__ */ get('/roi/index');
export const roiMatchingIds = /* @__PURE__ */ get('/roi/matching-ids');
export const roiAll = /* @__PURE__ */ get('/roi/all');
export const folderGetFolderByRoiIndex = /* @__PURE__ */ get('/folder/get-folder-by-roi-index');
export const roiGetRoiByCode = /* @__PURE__ */ get('/roi/get-roi-by-code');
export const roiGetAdjacentRoi = /* @__PURE__ */ get('/roi/get-adjacent-roi');
export const roiActions = /* @__PURE__ */ get('/roi/actions');
export const toolSysInit = /* @__PURE__ */ get('/tool/sys-init');
