/** Calls answered by apps/server/src/modules/group-view/group-view.routes.ts. */
import { get, post } from './define.ts';

export const settingGetGroupView = /* @__PURE__ */ get('/setting/get-group-view');
export const settingSetGroupView = /* @__PURE__ */ post('/setting/set-group-view');
export const settingSaveUser = /* @__PURE__ */ post('/setting/save-user');
