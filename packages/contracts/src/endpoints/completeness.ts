/** Calls answered by apps/server/src/modules/completeness/completeness.routes.ts. */
import { get } from './define.ts';

export const ippCompleteness = /* @__PURE__ */ get('/ipp/completeness');
