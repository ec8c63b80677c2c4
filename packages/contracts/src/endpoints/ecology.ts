/** Calls answered by apps/server/src/modules/ecology/ecology.routes.ts. */
import { get } from './define.ts';

export const ecologyGetSiteEcology = /* @__PURE__ */ get('/ecology/get-site-ecology');
export const ecologyExportSiteEcology = /* @__PURE__ */ get('/ecology/export-site-ecology');
