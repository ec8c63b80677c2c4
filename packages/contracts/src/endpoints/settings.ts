/** Calls answered by apps/server/src/modules/settings/settings.routes.ts. */
import { get, post } from './define.ts';

export const settingIndex = /* @__PURE__ */ get('/setting/index');
export const settingGetSetInit = /* @__PURE__ */ get('/setting/get-set-init');
export const settingSave = /* @__PURE__ */ post('/setting/save');
export const settingLogoSave = /* @__PURE__ */ post('/setting/logo');
export const settingLogo = /* @__PURE__ */ get('/setting/logo');
export const spiInfoIndex = /* @__PURE__ */ get('/spi-info/index');
