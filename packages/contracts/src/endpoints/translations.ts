/** Calls answered by apps/server/src/modules/translations/translations.routes.ts. */
import { get, post } from './define.ts';

export const getLangLang = /* @__PURE__ */ get('/get-lang/lang');
export const getLangSave = /* @__PURE__ */ post('/get-lang/save');
export const uploadIndex = /* @__PURE__ */ post('/upload/index');
