import { z } from 'zod';
import {
  AlarmAcknowledgeBodySchema,
  AlarmClearBodySchema,
  AlarmCommentBodySchema,
  AlarmCommentSchema,
  AlarmCommentsQuerySchema,
  AlarmExportQuerySchema,
  AlarmListQuerySchema,
  AlarmRuleSaveBodySchema,
  AlarmRuleSchema,
  AlarmRulesQuerySchema,
  AlarmSchema,
  AlarmSummarySchema,
} from './alarms.ts';
import {
  AlarmTestResultSchema,
  AlarmTestWebhookBodySchema,
  AlarmEmailSaveBodySchema,
  AlarmEmailSettingSchema,
  AlarmWebhookQuerySchema,
  AlarmWebhookSaveBodySchema,
  AlarmWebhookSaveResultSchema,
  AlarmWebhookSchema,
} from './alarm-notices.ts';
import { AlarmSilenceSchema, AlarmSilenceSaveBodySchema, AlarmSilencesQuerySchema } from './alarm-silences.ts';
import { CompletenessQuerySchema, CompletenessSchema } from './completeness.ts';
import { DeviceConfigSchema, RoiAckSchema, TelemetryAckSchema, TelemetrySampleSchema } from './device.ts';
import { EcologyExportQuerySchema, SiteEcologyQuerySchema, SiteEcologySchema } from './ecology.ts';
import {
  ActionsQuerySchema,
  ActionsSchema,
  AdjacentQuerySchema,
  AdjacentSchema,
  BatchDeleteBodySchema,
  BulkActionQuerySchema,
  BulkActionRequestBodySchema,
  BulkResultSchema,
  CategorySchema,
  ChangeStatusBodySchema,
  ClassItemSchema,
  CreatedSchema,
  ExportBodySchema,
  FolderIdBodySchema,
  FolderRoisQuerySchema,
  GroupDeleteBodySchema,
  IdListBodySchema,
  ImportProgressQuerySchema,
  ImportProgressSchema,
  ImportQuerySchema,
  ImportReportSchema,
  MatchingIdsQuerySchema,
  MatchingIdsSchema,
  NewFolderBodySchema,
  NewToolbarBodySchema,
  OperateFolderBodySchema,
  OperateResultSchema,
  OperateRoiBodySchema,
  ReBinBodySchema,
  ReidentifyBodySchema,
  ReidentifyResultSchema,
  RenameBodySchema,
  RoiDeleteBodySchema,
  RoiDeleteQuerySchema,
  RoiListQuerySchema,
  RoiPageSchema,
  RoisByCodeQuerySchema,
  SetLabelQuerySchema,
  SiteFolderBodySchema,
  SiteRoiBodySchema,
  SysInitQuerySchema,
  TemporaryDeleteBodySchema,
  ToolbarItemSchema,
  TreeNodeSchema,
  TreeQuerySchema,
} from './identify.ts';
import {
  GroupViewSaveBodySchema,
  GroupViewSchema,
  IppApplyConfigBodySchema,
  IppApplyConfigResultSchema,
  IppConfigChangeSchema,
  IppConfigHistoryQuerySchema,
  IppIndexQuerySchema,
  IppSaveBodySchema,
  IppSaveResultSchema,
  IppSchema,
  IppWithKeySchema,
} from './ipps.ts';
import {
  LabelHistoryQuerySchema,
  LabelHistorySchema,
  LastActionSchema,
  UndoBodySchema,
  UndoResultSchema,
} from './label-history.ts';
import { IdBodySchema } from './paging.ts';
import {
  ActivateBodySchema,
  CorrectedCountsQuerySchema,
  CorrectedCountsSchema,
  EnhanceBodySchema,
  EnhanceResultSchema,
  FeatureBodySchema,
  FeatureResultSchema,
  JobIdBodySchema,
  JobListSchema,
  JobQuerySchema,
  JobSchema,
  JobsQuerySchema,
  ModelListSchema,
  ModelReportQuerySchema,
  ModelReportSchema,
  ReferenceAnswerSchema,
  ReferenceBodySchema,
  ReferenceQueryBodySchema,
  RoiInsightQuerySchema,
  RoiInsightSchema,
  SimilarQuerySchema,
  SimilarSchema,
  TeamQuerySchema,
  ThresholdsBodySchema,
  ThresholdsSchema,
  TrainBodySchema,
  TrainResultSchema,
  UploadAnswerSchema,
} from './recognition.ts';
import { LoginBodySchema, LoginResultSchema, UserInfoSchema } from './session.ts';
import {
  RoleSaveBodySchema,
  RoleTableSchema,
  SettingsInitSchema,
  SettingsSaveBodySchema,
  SettingsSchema,
  SystemInfoSchema,
  UserSettingsSaveBodySchema,
  UserSettingsSchema,
} from './settings.ts';
import { SaveClassTaxonBodySchema, SavedClassTaxonSchema } from './taxa.ts';
import { TeamIndexQuerySchema, TeamSaveBodySchema, TeamSchema } from './teams.ts';
import { LangEntrySchema, LangQuerySchema, TranslationSaveBodySchema, TranslationUploadResultSchema } from './translations.ts';
import { TelemetryTrendQuerySchema, TelemetryTrendSchema } from './trends.ts';
import { ChangePasswordBodySchema, UserIndexQuerySchema, UserSaveBodySchema, UserSchema, UserViewQuerySchema } from './users.ts';
import {
  FavoriteBodySchema,
  Roi24Schema,
  Roi30QuerySchema,
  Roi30Schema,
  LastInsertSchema,
  RoiDetailsQuerySchema,
  RoiDetailsSchema,
  RoiSummarySchema,
  RoisQuerySchema,
  SiteRoiQuerySchema,
  SiteRoiSchema,
  ViewsScopeQuerySchema,
  WallSchema,
} from './views.ts';
import { BLOB_NAME } from './constants.ts';
import * as EP from './endpoints.ts';

/** An endpoint's name in EP: its path in camelCase (the POST twin of a GET path ends in Save). */
export type EndpointName = keyof typeof EP;

// The small answers several calls share, named once (they were written inline in the route files).
/** A call done, nothing to report. */
export const OkSchema = z.object({ ok: z.literal(true) });
/** How many rows (ROIs, folders) a call changed. */
export const AffectedSchema = z.object({ affected: z.number().int() });
/** How many entries a save stored. */
export const SavedSchema = z.object({ saved: z.number().int() });
/** POST /roi/set-favorite: the ROI's favourite flag after the call. */
export const FavoriteResultSchema = z.object({ favorite: z.boolean() });
/** GET /roi/set-roi-label-index: the class the ROI now has (null: none) and its hand label (spec §5.9.3 hi). */
export const LabelSetResultSchema = z.object({ class_id: z.number().int().nullable(), hi: z.number().int() });
/** POST /upload/index: only the translation upload exists (spec §5.6). */
export const TranslationUploadQuerySchema = z.object({ action: z.literal('language'), dry_run: z.enum(['0', '1']).optional() });
/** GET /setting/logo: the version in the URL only busts caches. */
export const LogoQuerySchema = z.object({ v: z.string().max(64).optional() });
/** GET /roi/file/:name: a stored image by its content hash and kind. */
export const BlobFileParamsSchema = z.object({ name: z.string().regex(BLOB_NAME) });

/** What a call carries: its querystring, path parameters and body, and the data of its success envelope (or a raw stream). */
export interface EndpointSchemas {
  readonly query?: z.ZodType;
  readonly params?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success envelope's `data`; absent for answers that are not an envelope (files, CSV, the event stream). */
  readonly data?: z.ZodType;
  /** A raw answer's schema, for the OpenAPI page only. */
  readonly stream?: z.ZodType;
}

/**
 * Each endpoint of endpoints.ts with its schemas: the server registers its routes from this table, and the web takes
 * its request and answer types from it (a type-only import, so no schema reaches the shell).
 */
export const API = {
  // identify/bulk.routes.ts
  roiSaveMove: { ...EP.roiSaveMove, query: BulkActionQuerySchema, body: BulkActionRequestBodySchema, data: BulkResultSchema },
  roiOperatorSiteRoi: { ...EP.roiOperatorSiteRoi, body: SiteRoiBodySchema, data: BulkResultSchema },
  roiReIdentify: { ...EP.roiReIdentify, body: ReidentifyBodySchema, data: ReidentifyResultSchema },
  // identify/identify.routes.ts
  roiCategorys: { ...EP.roiCategorys, query: ViewsScopeQuerySchema, data: z.array(CategorySchema) },
  roiIndexIndex: { ...EP.roiIndexIndex, query: TreeQuerySchema, data: z.array(TreeNodeSchema) },
  roiIndex: { ...EP.roiIndex, query: RoiListQuerySchema, data: RoiPageSchema },
  roiMatchingIds: { ...EP.roiMatchingIds, query: MatchingIdsQuerySchema, data: MatchingIdsSchema },
  roiAll: { ...EP.roiAll, query: RoiListQuerySchema.omit({ category_id: true }), data: RoiPageSchema },
  folderGetFolderByRoiIndex: { ...EP.folderGetFolderByRoiIndex, query: FolderRoisQuerySchema, data: RoiPageSchema },
  roiGetRoiByCode: { ...EP.roiGetRoiByCode, query: RoisByCodeQuerySchema, data: RoiPageSchema },
  roiGetAdjacentRoi: { ...EP.roiGetAdjacentRoi, query: AdjacentQuerySchema, data: AdjacentSchema },
  roiActions: { ...EP.roiActions, query: ActionsQuerySchema, data: ActionsSchema },
  toolSysInit: { ...EP.toolSysInit, query: SysInitQuerySchema, data: z.array(ClassItemSchema) },
  // identify/folders.routes.ts
  roiIndexSave: { ...EP.roiIndexSave, body: NewFolderBodySchema, data: CreatedSchema },
  roiIndexRename: { ...EP.roiIndexRename, body: RenameBodySchema, data: z.null() },
  roiIndexDeleteFolder: { ...EP.roiIndexDeleteFolder, body: FolderIdBodySchema, data: z.null() },
  roiIndexBatchDelete: { ...EP.roiIndexBatchDelete, body: BatchDeleteBodySchema, data: AffectedSchema },
  roiIndexChangeStatus: { ...EP.roiIndexChangeStatus, body: ChangeStatusBodySchema, data: z.null() },
  roiIndexRsync: { ...EP.roiIndexRsync, query: ViewsScopeQuerySchema, data: AffectedSchema },
  roiIndexToolBar: { ...EP.roiIndexToolBar, data: z.array(ToolbarItemSchema) },
  roiIndexAddToolBar: { ...EP.roiIndexAddToolBar, body: NewToolbarBodySchema, data: ToolbarItemSchema },
  roiIndexDeleteToolBar: { ...EP.roiIndexDeleteToolBar, body: IdListBodySchema, data: z.null() },
  folderOperateFolder: { ...EP.folderOperateFolder, body: OperateFolderBodySchema, data: OperateResultSchema },
  folderOperatorSiteFolder: { ...EP.folderOperatorSiteFolder, body: SiteFolderBodySchema, data: OperateResultSchema },
  folderDeleteTemporaryFolder: { ...EP.folderDeleteTemporaryFolder, body: TemporaryDeleteBodySchema, data: AffectedSchema },
  roiOperateRoi: { ...EP.roiOperateRoi, body: OperateRoiBodySchema, data: OperateResultSchema },
  roiDelete: { ...EP.roiDelete, query: RoiDeleteQuerySchema, body: RoiDeleteBodySchema, data: BulkResultSchema },
  roiSetRoiLabelIndex: { ...EP.roiSetRoiLabelIndex, query: SetLabelQuerySchema, data: LabelSetResultSchema },
  roiGroupReBin: { ...EP.roiGroupReBin, body: ReBinBodySchema, data: AffectedSchema },
  roiGroupDelete: { ...EP.roiGroupDelete, query: ViewsScopeQuerySchema, body: GroupDeleteBodySchema, data: AffectedSchema },
  // teams/teams.routes.ts
  groupIndex: { ...EP.groupIndex, query: TeamIndexQuerySchema, data: z.array(TeamSchema) },
  groupSave: { ...EP.groupSave, body: TeamSaveBodySchema, data: TeamSchema },
  groupDelete: { ...EP.groupDelete, body: IdBodySchema, data: OkSchema },
  // group-view/group-view.routes.ts
  settingGetGroupView: { ...EP.settingGetGroupView, query: TeamQuerySchema, data: GroupViewSchema },
  settingSetGroupView: { ...EP.settingSetGroupView, body: GroupViewSaveBodySchema, data: GroupViewSchema },
  settingSaveUser: { ...EP.settingSaveUser, body: UserSettingsSaveBodySchema, data: UserSettingsSchema },
  // undo/undo.routes.ts
  roiLastAction: { ...EP.roiLastAction, data: LastActionSchema.nullable() },
  roiUndo: { ...EP.roiUndo, body: UndoBodySchema, data: UndoResultSchema },
  // users/users.routes.ts
  userIndex: { ...EP.userIndex, query: UserIndexQuerySchema, data: z.array(UserSchema) },
  userView: { ...EP.userView, query: UserViewQuerySchema, data: UserSchema },
  userSave: { ...EP.userSave, body: UserSaveBodySchema, data: UserSchema },
  userDelete: { ...EP.userDelete, body: IdBodySchema, data: OkSchema },
  // auth/auth.routes.ts
  wyrbacLoginLogin: { ...EP.wyrbacLoginLogin, body: LoginBodySchema, data: LoginResultSchema },
  wyrbacLoginUserInfo: { ...EP.wyrbacLoginUserInfo, data: UserInfoSchema },
  wyrbacLoginLogout: { ...EP.wyrbacLoginLogout, data: OkSchema },
  // views/views.routes.ts
  viewsRoi24: { ...EP.viewsRoi24, query: ViewsScopeQuerySchema, data: Roi24Schema },
  viewsRoi30: { ...EP.viewsRoi30, query: Roi30QuerySchema, data: Roi30Schema },
  viewsWall: { ...EP.viewsWall, data: WallSchema },
  viewsRois: { ...EP.viewsRois, query: RoisQuerySchema, data: z.array(RoiSummarySchema) },
  dashboardGetLastInsertTime: { ...EP.dashboardGetLastInsertTime, data: LastInsertSchema },
  // trends/trends.routes.ts
  ippTelemetryTrend: { ...EP.ippTelemetryTrend, query: TelemetryTrendQuerySchema, data: TelemetryTrendSchema },
  // translations/translations.routes.ts
  getLangLang: { ...EP.getLangLang, query: LangQuerySchema, data: z.array(LangEntrySchema) },
  getLangSave: { ...EP.getLangSave, body: TranslationSaveBodySchema, data: SavedSchema },
  uploadIndex: { ...EP.uploadIndex, query: TranslationUploadQuerySchema, data: TranslationUploadResultSchema },
  // account/account.routes.ts
  accountChangePassWd: { ...EP.accountChangePassWd, body: ChangePasswordBodySchema, data: OkSchema },
  // rois/rois.routes.ts
  roiGetSiteRoi: { ...EP.roiGetSiteRoi, query: SiteRoiQuerySchema, data: SiteRoiSchema },
  roiExportSiteData: { ...EP.roiExportSiteData, query: SiteRoiQuerySchema },
  roiGetRoiDetails: { ...EP.roiGetRoiDetails, query: RoiDetailsQuerySchema, data: RoiDetailsSchema },
  roiSetFavorite: { ...EP.roiSetFavorite, body: FavoriteBodySchema, data: FavoriteResultSchema },
  roiFile: { ...EP.roiFile, params: BlobFileParamsSchema },
  // events/events.routes.ts
  events: { ...EP.events, stream: z.string().describe('text/event-stream') },
  // alarms/alarms.routes.ts
  alarmRules: { ...EP.alarmRules, query: AlarmRulesQuerySchema, data: z.array(AlarmRuleSchema) },
  alarmSaveRule: { ...EP.alarmSaveRule, body: AlarmRuleSaveBodySchema, data: AlarmRuleSchema },
  alarmRemoveRule: { ...EP.alarmRemoveRule, body: IdBodySchema, data: OkSchema },
  alarmList: { ...EP.alarmList, query: AlarmListQuerySchema, data: z.array(AlarmSchema) },
  alarmSummary: { ...EP.alarmSummary, data: AlarmSummarySchema },
  alarmAcknowledge: { ...EP.alarmAcknowledge, body: AlarmAcknowledgeBodySchema, data: OkSchema },
  alarmWebhook: { ...EP.alarmWebhook, query: AlarmWebhookQuerySchema, data: AlarmWebhookSchema },
  alarmSaveWebhook: { ...EP.alarmSaveWebhook, body: AlarmWebhookSaveBodySchema, data: AlarmWebhookSaveResultSchema },
  alarmMyEmail: { ...EP.alarmMyEmail, data: AlarmEmailSettingSchema },
  alarmSaveMyEmail: { ...EP.alarmSaveMyEmail, body: AlarmEmailSaveBodySchema, data: AlarmEmailSettingSchema },
  alarmClear: { ...EP.alarmClear, body: AlarmClearBodySchema, data: OkSchema },
  alarmComments: { ...EP.alarmComments, query: AlarmCommentsQuerySchema, data: z.array(AlarmCommentSchema) },
  alarmComment: { ...EP.alarmComment, body: AlarmCommentBodySchema, data: AlarmCommentSchema },
  alarmTestWebhook: { ...EP.alarmTestWebhook, body: AlarmTestWebhookBodySchema, data: AlarmTestResultSchema },
  alarmTestEmail: { ...EP.alarmTestEmail, data: AlarmTestResultSchema },
  alarmSilences: { ...EP.alarmSilences, query: AlarmSilencesQuerySchema, data: z.array(AlarmSilenceSchema) },
  alarmSaveSilence: { ...EP.alarmSaveSilence, body: AlarmSilenceSaveBodySchema, data: AlarmSilenceSchema },
  alarmEndSilence: { ...EP.alarmEndSilence, body: IdBodySchema, data: OkSchema },
  alarmExport: { ...EP.alarmExport, query: AlarmExportQuerySchema },
  // settings/settings.routes.ts
  settingIndex: { ...EP.settingIndex, data: SettingsSchema },
  settingGetSetInit: { ...EP.settingGetSetInit, data: SettingsInitSchema },
  settingSave: { ...EP.settingSave, body: SettingsSaveBodySchema, data: SettingsSchema },
  settingLogoSave: { ...EP.settingLogoSave, data: SettingsSchema },
  settingLogo: { ...EP.settingLogo, query: LogoQuerySchema },
  spiInfoIndex: { ...EP.spiInfoIndex, data: SystemInfoSchema },
  // ipps/ipps.routes.ts
  ippIndex: { ...EP.ippIndex, query: IppIndexQuerySchema, data: z.array(IppSchema) },
  siteIppOne: { ...EP.siteIppOne, body: IdBodySchema, data: IppSchema },
  ippSave: { ...EP.ippSave, body: IppSaveBodySchema, data: IppSaveResultSchema },
  ippDelete: { ...EP.ippDelete, body: IdBodySchema, data: OkSchema },
  ippRotateKey: { ...EP.ippRotateKey, body: IdBodySchema, data: IppWithKeySchema },
  ippConfigHistory: { ...EP.ippConfigHistory, query: IppConfigHistoryQuerySchema, data: z.array(IppConfigChangeSchema) },
  ippApplyConfig: { ...EP.ippApplyConfig, body: IppApplyConfigBodySchema, data: IppApplyConfigResultSchema },
  // taxa/taxa.routes.ts
  taxaSaveClassTaxon: { ...EP.taxaSaveClassTaxon, body: SaveClassTaxonBodySchema, data: SavedClassTaxonSchema },
  // roles/roles.routes.ts
  settingGetRole: { ...EP.settingGetRole, data: RoleTableSchema },
  settingSaveRole: { ...EP.settingSaveRole, body: RoleSaveBodySchema, data: RoleTableSchema },
  // recognition/recognition.routes.ts
  aiCorrectedCounts: { ...EP.aiCorrectedCounts, query: CorrectedCountsQuerySchema, data: CorrectedCountsSchema },
  pythonFeature: { ...EP.pythonFeature, body: FeatureBodySchema, data: FeatureResultSchema },
  aiRoi: { ...EP.aiRoi, query: RoiInsightQuerySchema, data: RoiInsightSchema },
  aiSimilar: { ...EP.aiSimilar, query: SimilarQuerySchema, data: SimilarSchema },
  aiModels: { ...EP.aiModels, query: TeamQuerySchema, data: ModelListSchema },
  aiModelReport: { ...EP.aiModelReport, query: ModelReportQuerySchema, data: ModelReportSchema },
  aiModelsTrain: { ...EP.aiModelsTrain, body: TrainBodySchema, data: TrainResultSchema },
  aiModelsActivate: { ...EP.aiModelsActivate, body: ActivateBodySchema, data: ModelListSchema },
  aiThresholds: { ...EP.aiThresholds, query: TeamQuerySchema, data: ThresholdsSchema },
  aiThresholdsSave: { ...EP.aiThresholdsSave, body: ThresholdsBodySchema, data: ThresholdsSchema },
  aiJobs: { ...EP.aiJobs, query: JobsQuerySchema, data: JobListSchema },
  aiJob: { ...EP.aiJob, query: JobQuerySchema, data: JobSchema },
  aiJobsCancel: { ...EP.aiJobsCancel, body: JobIdBodySchema, data: JobSchema },
  uploads: { ...EP.uploads, query: TeamQuerySchema, data: UploadAnswerSchema },
  foldersAdd: { ...EP.foldersAdd, body: ReferenceBodySchema, data: AffectedSchema },
  foldersDelete: { ...EP.foldersDelete, body: ReferenceBodySchema, data: AffectedSchema },
  foldersQuery: { ...EP.foldersQuery, body: ReferenceQueryBodySchema, data: ReferenceAnswerSchema },
  enhance: { ...EP.enhance, body: EnhanceBodySchema, data: EnhanceResultSchema },
  // ecology/ecology.routes.ts
  ecologyGetSiteEcology: { ...EP.ecologyGetSiteEcology, query: SiteEcologyQuerySchema, data: SiteEcologySchema },
  ecologyExportSiteEcology: { ...EP.ecologyExportSiteEcology, query: EcologyExportQuerySchema },
  // label-history/label-history.routes.ts
  roiLabelHistory: { ...EP.roiLabelHistory, query: LabelHistoryQuerySchema, data: LabelHistorySchema },
  // device/device.routes.ts
  deviceTelemetry: { ...EP.deviceTelemetry, body: TelemetrySampleSchema, data: TelemetryAckSchema },
  deviceRois: { ...EP.deviceRois, data: RoiAckSchema },
  deviceConfig: { ...EP.deviceConfig, data: DeviceConfigSchema },
  // completeness/completeness.routes.ts
  ippCompleteness: { ...EP.ippCompleteness, query: CompletenessQuerySchema, data: CompletenessSchema },
  // transfer/transfer.routes.ts
  roiImport: { ...EP.roiImport, query: ImportQuerySchema, data: ImportReportSchema },
  roiImportProgress: { ...EP.roiImportProgress, query: ImportProgressQuerySchema, data: ImportProgressSchema },
  roiExport: { ...EP.roiExport, body: ExportBodySchema },
} as const satisfies { [K in EndpointName]: (typeof EP)[K] & EndpointSchemas };

type Api = typeof API;
type Def<E extends { method: string; path: string }> = Extract<Api[keyof Api], { method: E['method']; path: E['path'] }>;
/** The success data of a call, as the web receives it. */
export type ApiData<E extends { method: string; path: string }> =
  Def<E> extends { data: infer S extends z.ZodType } ? z.output<S> : unknown;
/** The body a call accepts. */
export type ApiBody<E extends { method: string; path: string }> =
  Def<E> extends { body: infer S extends z.ZodType } ? z.input<S> : never;
/** The querystring a call accepts. */
export type ApiQuery<E extends { method: string; path: string }> =
  Def<E> extends { query: infer S extends z.ZodType } ? z.input<S> : never;
