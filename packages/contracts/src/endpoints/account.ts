/** Calls answered by apps/server/src/modules/account/account.routes.ts. */
import { post } from './define.ts';

export const accountChangePassWd = /* @__PURE__ */ post('/account/change-pass-wd');
