/** Calls answered by apps/server/src/modules/teams/teams.routes.ts. */
import { get, post } from './define.ts';

export const groupIndex = /* @__PURE__ */ get('/group/index');
export const groupSave = /* @__PURE__ */ post('/group/save');
export const groupDelete = /* @__PURE__ */ post('/group/delete');
