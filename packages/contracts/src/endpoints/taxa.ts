/** Calls answered by apps/server/src/modules/taxa/taxa.routes.ts. */
import { post } from './define.ts';

export const taxaSaveClassTaxon = /* @__PURE__ */ post('/taxa/save-class-taxon');
