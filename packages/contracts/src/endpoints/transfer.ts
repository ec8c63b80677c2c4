/** Calls answered by apps/server/src/modules/transfer/transfer.routes.ts. */
import { get, post } from './define.ts';

export const roiImport = /* @__PURE__ */ post('/roi/import');
export const roiImportProgress = /* @__PURE__ */ get('/roi/import-progress');
export const roiExport = /* @__PURE__ */ post('/roi/export');
