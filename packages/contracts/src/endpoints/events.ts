/** Calls answered by apps/server/src/modules/events/events.routes.ts. */
import { get } from './define.ts';

export const events = /* @__PURE__ */ get('/events');
