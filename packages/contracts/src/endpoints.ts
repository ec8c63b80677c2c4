/**
 * Every HTTP call of the server, each written once: its method and path. The server registers each route from here
 * with the schemas in api.ts (apps/server/src/http/endpoint.ts), the web calls each from here (apps/web/src/api/client.ts),
 * the simulator posts to the device ones; test/endpoints.test.ts checks that the server registers exactly these.
 * Each is its own export, so a bundle keeps only the ones its code uses: import them as a namespace,
 * `import { EP } from '@ipp/contracts/endpoints'` (EP.groupIndex).
 * Paths are under /api unless `root` (spec §7: uploads, folders/*, enhance). Names are the path in camelCase.
 * Zod-free, so the console's shell can import it.
 */

const get = <P extends string>(path: P) => ({ method: 'GET', path }) as const;
const post = <P extends string>(path: P) => ({ method: 'POST', path }) as const;
const postRoot = <P extends string>(path: P) => ({ method: 'POST', path, root: true }) as const;

// Grouped by the server module that answers them (the comment names its route file under apps/server/src/modules).
// identify/bulk.routes.ts
export const roiSaveMove = /* @__PURE__ */ post('/roi/save-move');
export const roiOperatorSiteRoi = /* @__PURE__ */ post('/roi/operator-site-roi');
export const roiReIdentify = /* @__PURE__ */ post('/roi/re-identify');

// identify/identify.routes.ts
export const roiCategorys = /* @__PURE__ */ get('/roi/categorys');
export const roiIndexIndex = /* @__PURE__ */ get('/roi-index/index');
export const roiIndex = /* @__PURE__ */ get('/roi/index');
export const roiMatchingIds = /* @__PURE__ */ get('/roi/matching-ids');
export const roiAll = /* @__PURE__ */ get('/roi/all');
export const folderGetFolderByRoiIndex = /* @__PURE__ */ get('/folder/get-folder-by-roi-index');
export const roiGetRoiByCode = /* @__PURE__ */ get('/roi/get-roi-by-code');
export const roiGetAdjacentRoi = /* @__PURE__ */ get('/roi/get-adjacent-roi');
export const roiActions = /* @__PURE__ */ get('/roi/actions');
export const toolSysInit = /* @__PURE__ */ get('/tool/sys-init');

// identify/folders.routes.ts
export const roiIndexSave = /* @__PURE__ */ post('/roi-index/save');
export const roiIndexRename = /* @__PURE__ */ post('/roi-index/rename');
export const roiIndexDeleteFolder = /* @__PURE__ */ post('/roi-index/delete-folder');
export const roiIndexBatchDelete = /* @__PURE__ */ post('/roi-index/batch-delete');
export const roiIndexChangeStatus = /* @__PURE__ */ post('/roi-index/change-status');
export const roiIndexRsync = /* @__PURE__ */ post('/roi-index/rsync');
export const roiIndexToolBar = /* @__PURE__ */ get('/roi-index/tool-bar');
export const roiIndexAddToolBar = /* @__PURE__ */ post('/roi-index/add-tool-bar');
export const roiIndexDeleteToolBar = /* @__PURE__ */ post('/roi-index/delete-tool-bar');
export const folderOperateFolder = /* @__PURE__ */ post('/folder/operate-folder');
export const folderOperatorSiteFolder = /* @__PURE__ */ post('/folder/operator-site-folder');
export const folderDeleteTemporaryFolder = /* @__PURE__ */ post('/folder/delete-temporary-folder');
export const roiOperateRoi = /* @__PURE__ */ post('/roi/operate-roi');
export const roiDelete = /* @__PURE__ */ post('/roi/delete');
export const roiSetRoiLabelIndex = /* @__PURE__ */ get('/roi/set-roi-label-index');
export const roiGroupReBin = /* @__PURE__ */ post('/roi-group/re-bin');
export const roiGroupDelete = /* @__PURE__ */ post('/roi-group/delete');

// teams/teams.routes.ts
export const groupIndex = /* @__PURE__ */ get('/group/index');
export const groupSave = /* @__PURE__ */ post('/group/save');
export const groupDelete = /* @__PURE__ */ post('/group/delete');

// group-view/group-view.routes.ts
export const settingGetGroupView = /* @__PURE__ */ get('/setting/get-group-view');
export const settingSetGroupView = /* @__PURE__ */ post('/setting/set-group-view');
export const settingSaveUser = /* @__PURE__ */ post('/setting/save-user');

// undo/undo.routes.ts
export const roiLastAction = /* @__PURE__ */ get('/roi/last-action');
export const roiUndo = /* @__PURE__ */ post('/roi/undo');

// users/users.routes.ts
export const userIndex = /* @__PURE__ */ get('/user/index');
export const userView = /* @__PURE__ */ get('/user/view');
export const userSave = /* @__PURE__ */ post('/user/save');
export const userDelete = /* @__PURE__ */ post('/user/delete');

// auth/auth.routes.ts
export const wyrbacLoginLogin = /* @__PURE__ */ post('/wyrbac/login/login');
export const wyrbacLoginUserInfo = /* @__PURE__ */ get('/wyrbac/login/user-info');
export const wyrbacLoginLogout = /* @__PURE__ */ get('/wyrbac/login/logout');

// views/views.routes.ts
export const viewsRoi24 = /* @__PURE__ */ get('/views/roi24');
export const viewsRoi30 = /* @__PURE__ */ get('/views/roi30');
export const viewsWall = /* @__PURE__ */ get('/views/wall');
export const viewsRois = /* @__PURE__ */ get('/views/rois');
export const dashboardGetLastInsertTime = /* @__PURE__ */ get('/dashboard/get-last-insert-time');

// trends/trends.routes.ts
export const ippTelemetryTrend = /* @__PURE__ */ get('/ipp/telemetry-trend');

// translations/translations.routes.ts
export const getLangLang = /* @__PURE__ */ get('/get-lang/lang');
export const getLangSave = /* @__PURE__ */ post('/get-lang/save');
export const uploadIndex = /* @__PURE__ */ post('/upload/index');

// account/account.routes.ts
export const accountChangePassWd = /* @__PURE__ */ post('/account/change-pass-wd');

// rois/rois.routes.ts
export const roiGetSiteRoi = /* @__PURE__ */ get('/roi/get-site-roi');
export const roiExportSiteData = /* @__PURE__ */ get('/roi/export-site-data');
export const roiGetRoiDetails = /* @__PURE__ */ get('/roi/get-roi-details');
export const roiSetFavorite = /* @__PURE__ */ post('/roi/set-favorite');
export const roiFile = /* @__PURE__ */ get('/roi/file/:name');

// events/events.routes.ts
export const events = /* @__PURE__ */ get('/events');

// alarms/alarms.routes.ts
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

// settings/settings.routes.ts
export const settingIndex = /* @__PURE__ */ get('/setting/index');
export const settingGetSetInit = /* @__PURE__ */ get('/setting/get-set-init');
export const settingSave = /* @__PURE__ */ post('/setting/save');
export const settingLogoSave = /* @__PURE__ */ post('/setting/logo');
export const settingLogo = /* @__PURE__ */ get('/setting/logo');
export const spiInfoIndex = /* @__PURE__ */ get('/spi-info/index');

// ipps/ipps.routes.ts
export const ippIndex = /* @__PURE__ */ get('/ipp/index');
export const siteIppOne = /* @__PURE__ */ post('/site/ipp-one');
export const ippSave = /* @__PURE__ */ post('/ipp/save');
export const ippDelete = /* @__PURE__ */ post('/ipp/delete');
export const ippRotateKey = /* @__PURE__ */ post('/ipp/rotate-key');
export const ippConfigHistory = /* @__PURE__ */ get('/ipp/config-history');
export const ippApplyConfig = /* @__PURE__ */ post('/ipp/apply-config');

// taxa/taxa.routes.ts
export const taxaSaveClassTaxon = /* @__PURE__ */ post('/taxa/save-class-taxon');

// roles/roles.routes.ts
export const settingGetRole = /* @__PURE__ */ get('/setting/get-role');
export const settingSaveRole = /* @__PURE__ */ post('/setting/save-role');

// recognition/recognition.routes.ts
export const aiCorrectedCounts = /* @__PURE__ */ get('/ai/corrected-counts');
export const pythonFeature = /* @__PURE__ */ post('/python/feature');
export const aiRoi = /* @__PURE__ */ get('/ai/roi');
export const aiSimilar = /* @__PURE__ */ get('/ai/similar');
export const aiModels = /* @__PURE__ */ get('/ai/models');
export const aiModelReport = /* @__PURE__ */ get('/ai/model/report');
export const aiModelsTrain = /* @__PURE__ */ post('/ai/models/train');
export const aiModelsActivate = /* @__PURE__ */ post('/ai/models/activate');
export const aiThresholds = /* @__PURE__ */ get('/ai/thresholds');
export const aiThresholdsSave = /* @__PURE__ */ post('/ai/thresholds');
export const aiJobs = /* @__PURE__ */ get('/ai/jobs');
export const aiJob = /* @__PURE__ */ get('/ai/job');
export const aiJobsCancel = /* @__PURE__ */ post('/ai/jobs/cancel');
export const uploads = /* @__PURE__ */ postRoot('/uploads');
export const foldersAdd = /* @__PURE__ */ postRoot('/folders/add');
export const foldersDelete = /* @__PURE__ */ postRoot('/folders/delete');
export const foldersQuery = /* @__PURE__ */ postRoot('/folders/query');
export const enhance = /* @__PURE__ */ postRoot('/enhance');

// ecology/ecology.routes.ts
export const ecologyGetSiteEcology = /* @__PURE__ */ get('/ecology/get-site-ecology');
export const ecologyExportSiteEcology = /* @__PURE__ */ get('/ecology/export-site-ecology');

// label-history/label-history.routes.ts
export const roiLabelHistory = /* @__PURE__ */ get('/roi/label-history');

// device/device.routes.ts
export const deviceTelemetry = /* @__PURE__ */ post('/device/telemetry');
export const deviceRois = /* @__PURE__ */ post('/device/rois');
export const deviceConfig = /* @__PURE__ */ get('/device/config');

// completeness/completeness.routes.ts
export const ippCompleteness = /* @__PURE__ */ get('/ipp/completeness');

// transfer/transfer.routes.ts
export const roiImport = /* @__PURE__ */ post('/roi/import');
export const roiImportProgress = /* @__PURE__ */ get('/roi/import-progress');
export const roiExport = /* @__PURE__ */ post('/roi/export');
