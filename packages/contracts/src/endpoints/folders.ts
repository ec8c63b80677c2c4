/** Calls answered by apps/server/src/modules/identify/folders.routes.ts. */
import { get, post } from './define.ts';

export const roiIndexSave = /* @__PURE__ */ post('/roi-index/save');
export const roiIndexRename = /* @__PURE__ */ post('/roi-index/rename');
export const roiIndexDeleteFolder = /* @__PURE__ */ post('/roi-index/delete-folder');
export const roiIndexBatchDelete = /* @__PURE__ */ post('/roi-index/batch-delete');
export const roiIndexChangeStatus = /* @__PURE__ */ post('/roi-index/change-status');
export const roiIndexRsync = /* @__PURE__ */ post('/roi-index/rsync');
export const roiIndexToolBar = /* @__PURE__ */ get('/roi-index/tool-bar');
export const roiIndexAddToolBar = /* @__PURE__ */ post('/roi-index/add-tool-bar');
export const roiIndexDeleteToolBar = /* @__PURE__ */ post('/roi-index/delete-tool-bar');
export const folderOperateFolder = /* @__PURE__ */ post('/folder/operate-folder');
export const folderOperatorSiteFolder = /* @__PURE__ */ post('/folder/operator-site-folder');
export const folderDeleteTemporaryFolder = /* @__PURE__ */ post('/folder/delete-temporary-folder');
export const roiOperateRoi = /* @__PURE__ */ post('/roi/operate-roi');
export const roiDelete = /* @__PURE__ */ post('/roi/delete');
export const roiSetRoiLabelIndex = /* @__PURE__ */ get('/roi/set-roi-label-index');
export const roiGroupReBin = /* @__PURE__ */ post('/roi-group/re-bin');
export const roiGroupDelete = /* @__PURE__ */ post('/roi-group/delete');
