/** Calls answered by apps/server/src/modules/auth/auth.routes.ts. */
import { get, post } from './define.ts';

export const wyrbacLoginLogin = /* @__PURE__ */ post('/wyrbac/login/login');
export const wyrbacLoginUserInfo = /* @__PURE__ */ get('/wyrbac/login/user-info');
export const wyrbacLoginLogout = /* @__PURE__ */ get('/wyrbac/login/logout');
