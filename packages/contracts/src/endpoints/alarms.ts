/** Calls answered by apps/server/src/modules/alarms/alarms.routes.ts. */
import { get, post } from './define.ts';

export const alarmRules = /* @__PURE__ */ get('/alarm/rules');
export const alarmSaveRule = /* @__PURE__ */ post('/alarm/save-rule');
export const alarmRemoveRule = /* @__PURE__ */ post('/alarm/remove-rule');
export const alarmList = /* @__PURE__ */ get('/alarm/list');
export const alarmSummary = /* @__PURE__ */ get('/alarm/summary');
export const alarmAcknowledge = /* @__PURE__ */ post('/alarm/acknowledge');
export const alarmWebhook = /* @__PURE__ */ get('/alarm/webhook');
export const alarmSaveWebhook = /* @__PURE__ */ post('/alarm/save-webhook');
export const alarmMyEmail = /* @__PURE__ */ get('/alarm/my-email');
export const alarmSaveMyEmail = /* @__PURE__ */ post('/alarm/save-my-email');
export const alarmClear = /* @__PURE__ */ post('/alarm/clear');
export const alarmComments = /* @__PURE__ */ get('/alarm/comments');
export const alarmComment = /* @__PURE__ */ post('/alarm/comment');
export const alarmTestWebhook = /* @__PURE__ */ post('/alarm/test-webhook');
export const alarmTestEmail = /* @__PURE__ */ post('/alarm/test-email');
export const alarmSilences = /* @__PURE__ */ get('/alarm/silences');
export const alarmSaveSilence = /* @__PURE__ */ post('/alarm/save-silence');
export const alarmEndSilence = /* @__PURE__ */ post('/alarm/end-silence');
export const alarmExport = /* @__PURE__ */ get('/alarm/export');
