/** Calls answered by apps/server/src/modules/ipps/ipps.routes.ts. */
import { get, post } from './define.ts';

export const ippIndex = /* @__PURE__ */ get('/ipp/index');
export const siteIppOne = /* @__PURE__ */ post('/site/ipp-one');
export const ippSave = /* @__PURE__ */ post('/ipp/save');
export const ippDelete = /* @__PURE__ */ post('/ipp/delete');
export const ippRotateKey = /* @__PURE__ */ post('/ipp/rotate-key');
export const ippConfigHistory = /* @__PURE__ */ get('/ipp/config-history');
export const ippApplyConfig = /* @__PURE__ */ post('/ipp/apply-config');
