/** Calls answered by apps/server/src/modules/users/users.routes.ts. */
import { get, post } from './define.ts';

export const userIndex = /* @__PURE__ */ get('/user/index');
export const userView = /* @__PURE__ */ get('/user/view');
export const userSave = /* @__PURE__ */ post('/user/save');
export const userDelete = /* @__PURE__ */ post('/user/delete');
