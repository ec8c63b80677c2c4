/**
 * Every HTTP call of the server, each written once: its method and path. The server registers each route from here
 * with the schemas in api.ts (apps/server/src/http/endpoint.ts), the web calls each from here (apps/web/src/api/client.ts),
 * the simulator posts to the device ones; test/endpoints.test.ts checks that the server registers exactly these.
 * Paths are under /api unless `root` (spec §7: uploads, folders/*, enhance). Names are the path in camelCase.
 * Zod-free, so the console's shell can import it.
 */
export interface Endpoint {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly root?: boolean;
}

const get = <P extends string>(path: P) => ({ method: 'GET', path }) as const;
const post = <P extends string>(path: P) => ({ method: 'POST', path }) as const;
const postRoot = <P extends string>(path: P) => ({ method: 'POST', path, root: true }) as const;

/** Grouped by the server module that answers them (the comment names its route file under apps/server/src/modules). */
export const EP = {
  // identify/bulk.routes.ts
  roiSaveMove: post('/roi/save-move'),
  roiOperatorSiteRoi: post('/roi/operator-site-roi'),
  roiReIdentify: post('/roi/re-identify'),
  // identify/identify.routes.ts
  roiCategorys: get('/roi/categorys'),
  roiIndexIndex: get('/roi-index/index'),
  roiIndex: get('/roi/index'),
  roiMatchingIds: get('/roi/matching-ids'),
  roiAll: get('/roi/all'),
  folderGetFolderByRoiIndex: get('/folder/get-folder-by-roi-index'),
  roiGetRoiByCode: get('/roi/get-roi-by-code'),
  roiGetAdjacentRoi: get('/roi/get-adjacent-roi'),
  roiActions: get('/roi/actions'),
  toolSysInit: get('/tool/sys-init'),
  // identify/folders.routes.ts
  roiIndexSave: post('/roi-index/save'),
  roiIndexRename: post('/roi-index/rename'),
  roiIndexDeleteFolder: post('/roi-index/delete-folder'),
  roiIndexBatchDelete: post('/roi-index/batch-delete'),
  roiIndexChangeStatus: post('/roi-index/change-status'),
  roiIndexRsync: post('/roi-index/rsync'),
  roiIndexToolBar: get('/roi-index/tool-bar'),
  roiIndexAddToolBar: post('/roi-index/add-tool-bar'),
  roiIndexDeleteToolBar: post('/roi-index/delete-tool-bar'),
  folderOperateFolder: post('/folder/operate-folder'),
  folderOperatorSiteFolder: post('/folder/operator-site-folder'),
  folderDeleteTemporaryFolder: post('/folder/delete-temporary-folder'),
  roiOperateRoi: post('/roi/operate-roi'),
  roiDelete: post('/roi/delete'),
  roiSetRoiLabelIndex: get('/roi/set-roi-label-index'),
  roiGroupReBin: post('/roi-group/re-bin'),
  roiGroupDelete: post('/roi-group/delete'),
  // teams/teams.routes.ts
  groupIndex: get('/group/index'),
  groupSave: post('/group/save'),
  groupDelete: post('/group/delete'),
  // group-view/group-view.routes.ts
  settingGetGroupView: get('/setting/get-group-view'),
  settingSetGroupView: post('/setting/set-group-view'),
  settingSaveUser: post('/setting/save-user'),
  // undo/undo.routes.ts
  roiLastAction: get('/roi/last-action'),
  roiUndo: post('/roi/undo'),
  // users/users.routes.ts
  userIndex: get('/user/index'),
  userView: get('/user/view'),
  userSave: post('/user/save'),
  userDelete: post('/user/delete'),
  // auth/auth.routes.ts
  wyrbacLoginLogin: post('/wyrbac/login/login'),
  wyrbacLoginUserInfo: get('/wyrbac/login/user-info'),
  wyrbacLoginLogout: get('/wyrbac/login/logout'),
  // views/views.routes.ts
  viewsRoi24: get('/views/roi24'),
  viewsRoi30: get('/views/roi30'),
  viewsWall: get('/views/wall'),
  viewsRois: get('/views/rois'),
  dashboardGetLastInsertTime: get('/dashboard/get-last-insert-time'),
  // trends/trends.routes.ts
  ippTelemetryTrend: get('/ipp/telemetry-trend'),
  // translations/translations.routes.ts
  getLangLang: get('/get-lang/lang'),
  getLangSave: post('/get-lang/save'),
  uploadIndex: post('/upload/index'),
  // account/account.routes.ts
  accountChangePassWd: post('/account/change-pass-wd'),
  // rois/rois.routes.ts
  roiGetSiteRoi: get('/roi/get-site-roi'),
  roiExportSiteData: get('/roi/export-site-data'),
  roiGetRoiDetails: get('/roi/get-roi-details'),
  roiSetFavorite: post('/roi/set-favorite'),
  roiFile: get('/roi/file/:name'),
  // events/events.routes.ts
  events: get('/events'),
  // alarms/alarms.routes.ts
  alarmRules: get('/alarm/rules'),
  alarmSaveRule: post('/alarm/save-rule'),
  alarmRemoveRule: post('/alarm/remove-rule'),
  alarmList: get('/alarm/list'),
  alarmSummary: get('/alarm/summary'),
  alarmAcknowledge: post('/alarm/acknowledge'),
  alarmWebhook: get('/alarm/webhook'),
  alarmSaveWebhook: post('/alarm/save-webhook'),
  alarmMyEmail: get('/alarm/my-email'),
  alarmSaveMyEmail: post('/alarm/save-my-email'),
  // settings/settings.routes.ts
  settingIndex: get('/setting/index'),
  settingGetSetInit: get('/setting/get-set-init'),
  settingSave: post('/setting/save'),
  settingLogoSave: post('/setting/logo'),
  settingLogo: get('/setting/logo'),
  spiInfoIndex: get('/spi-info/index'),
  // ipps/ipps.routes.ts
  ippIndex: get('/ipp/index'),
  siteIppOne: post('/site/ipp-one'),
  ippSave: post('/ipp/save'),
  ippDelete: post('/ipp/delete'),
  ippRotateKey: post('/ipp/rotate-key'),
  ippConfigHistory: get('/ipp/config-history'),
  ippApplyConfig: post('/ipp/apply-config'),
  // taxa/taxa.routes.ts
  taxaSaveClassTaxon: post('/taxa/save-class-taxon'),
  // roles/roles.routes.ts
  settingGetRole: get('/setting/get-role'),
  settingSaveRole: post('/setting/save-role'),
  // recognition/recognition.routes.ts
  aiCorrectedCounts: get('/ai/corrected-counts'),
  pythonFeature: post('/python/feature'),
  aiRoi: get('/ai/roi'),
  aiSimilar: get('/ai/similar'),
  aiModels: get('/ai/models'),
  aiModelReport: get('/ai/model/report'),
  aiModelsTrain: post('/ai/models/train'),
  aiModelsActivate: post('/ai/models/activate'),
  aiThresholds: get('/ai/thresholds'),
  aiThresholdsSave: post('/ai/thresholds'),
  aiJobs: get('/ai/jobs'),
  aiJob: get('/ai/job'),
  aiJobsCancel: post('/ai/jobs/cancel'),
  uploads: postRoot('/uploads'),
  foldersAdd: postRoot('/folders/add'),
  foldersDelete: postRoot('/folders/delete'),
  foldersQuery: postRoot('/folders/query'),
  enhance: postRoot('/enhance'),
  // ecology/ecology.routes.ts
  ecologyGetSiteEcology: get('/ecology/get-site-ecology'),
  ecologyExportSiteEcology: get('/ecology/export-site-ecology'),
  // label-history/label-history.routes.ts
  roiLabelHistory: get('/roi/label-history'),
  // device/device.routes.ts
  deviceTelemetry: post('/device/telemetry'),
  deviceRois: post('/device/rois'),
  deviceConfig: get('/device/config'),
  // completeness/completeness.routes.ts
  ippCompleteness: get('/ipp/completeness'),
  // transfer/transfer.routes.ts
  roiImport: post('/roi/import'),
  roiImportProgress: get('/roi/import-progress'),
  roiExport: post('/roi/export'),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof EP;

/** The endpoint's path with its parameters filled in: `/roi/file/:name` → `/roi/file/<name>`. */
export function pathOf(e: Endpoint, params: Readonly<Record<string, string | number>> = {}): string {
  return e.path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${e.path} needs its "${key}"`);
    return encodeURIComponent(String(value));
  });
}

/** The URL path a client calls, from the server's root: under /api unless the endpoint is a root one. */
export function urlPathOf(e: Endpoint, params: Readonly<Record<string, string | number>> = {}): string {
  return `${e.root ? '' : '/api'}${pathOf(e, params)}`;
}
