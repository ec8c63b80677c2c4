/** Calls answered by apps/server/src/modules/roles/roles.routes.ts. */
import { get, post } from './define.ts';

export const settingGetRole = /* @__PURE__ */ get('/setting/get-role');
export const settingSaveRole = /* @__PURE__ */ post('/setting/save-role');
