/** Calls answered by apps/server/src/modules/undo/undo.routes.ts. */
import { get, post } from './define.ts';

export const roiLastAction = /* @__PURE__ */ get('/roi/last-action');
export const roiUndo = /* @__PURE__ */ post('/roi/undo');
