import type { Generated } from 'kysely';
import type { Role, TrendSeriesKey } from '@ipp/contracts';

/** Timestamps are integer milliseconds since the epoch on both dialects. */
export interface TeamsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  account: string;
  name: string;
  password_hash: string;
  phone: string;
  email: string;
  group_id: number | null;
  role: Role;
  avatar: string;
  /** 1 for the read-only demo account. */
  is_demo: number;
  /** The user's own settings (migration 0010); null = the site default. */
  language: string | null;
  size: string | null;
  /** off | team | followed (migration 0018): which alarms the user is e-mailed about. */
  alarm_email: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  ended_at: number | null;
  /** logout | displaced | idle | expired | revoked */
  end_reason: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  account: string;
  at: number;
}

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: number;
}

export interface TranslationsTable {
  key: string;
  zh: string | null;
  en: string | null;
  updated_at: number;
}

export interface IppsTable {
  /** IANA time zone of the station (migration 0022); null = from its longitude. */
  time_zone: string | null;
  id: Generated<number>;
  /** Site ID; the instrument's identity on the device protocol. */
  dev_id: string;
  site_name: string;
  country: string;
  longitude: number | null;
  latitude: number | null;
  group_id: number;
  serial_number: string;
  /** Micrometres per image pixel (migration 0013); null = unknown. */
  pixel_size_um: number | null;
  /** JSON of the desired configuration (IppConfig). */
  config: string;
  /** sha256 of the device key; the key itself is shown once and never stored. */
  device_key_hash: string;
  last_online_at: number | null;
  wiper_status: string | null;
  /** JSON of the configuration the device last reported running (partial IppConfig). */
  applied_config: string | null;
  applied_at: number | null;
  config_version: Generated<number>;
  /** JSON of the latest telemetry sample (Measured), so lists need no telemetry scan. */
  latest_telemetry: string | null;
  /** Online time summed from telemetry gaps within the offline threshold. */
  online_ms: Generated<number>;
  /** The last total-volume counter reading, to turn the counter into volume per hour. */
  last_volume_total: number | null;
  /** The last reading of the device's image counter (rois_total), to turn it into images made per hour. */
  last_rois_total: number | null;
  /** When that reading was taken: the images counted by the next one were made since. */
  last_rois_at: number | null;
  last_roi_at: number | null;
  /** When the device (or its MQTT last will) said it went offline. */
  reported_offline_at: number | null;
  /** When its current online run began: its first report after being offline (migration 0025). */
  online_since: number | null;
  created_at: number;
  updated_at: number;
}

/** A team's alarm rule (migration 0018). */
export interface AlarmRulesTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  /** An AlarmKind. */
  kind: string;
  threshold: number | null;
  minutes: number | null;
  /** The class a biology rule watches (migration 0020); null for the others, or when the class was removed. */
  class_id: number | null;
  /** A series rule's series, comparison and band floor (migration 0030); null for other kinds. */
  series: string | null;
  comparison: string | null;
  threshold_low: number | null;
  /** null: every station of the team. */
  ipp_id: number | null;
  /** 1 or 0. */
  enabled: number;
  renotify_minutes: number;
  /** An AlarmSeverity (migration 0027), and the duration, clear level and no-data action of issue 40. */
  severity: Generated<string>;
  for_minutes: Generated<number>;
  clear_threshold: number | null;
  /** A NoDataAction. */
  no_data: Generated<string>;
  /** Routing and escalation (migration 0031): user id lists as JSON arrays; null notify list = who chose e-mail. */
  notify_webhook: Generated<number>;
  notify_user_ids: string | null;
  escalate_minutes: Generated<number>;
  escalate_user_ids: Generated<string>;
  escalate_webhook: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** An alarm a rule raised on a station (migration 0018); open while cleared_at is null. */
export interface AlarmsTable {
  id: Generated<number>;
  group_id: number;
  rule_id: number | null;
  rule_name: string;
  kind: string;
  threshold: number | null;
  minutes: number | null;
  /** A biology alarm's class (migration 0020). */
  class_id: number | null;
  /** A series rule's series, comparison and band floor (migration 0030); null for other kinds. */
  series: string | null;
  comparison: string | null;
  threshold_low: number | null;
  ipp_id: number;
  /** The rule's severity when it raised (migration 0027). */
  severity: Generated<string>;
  /** pending | active | acknowledged | cleared; a pending row is deleted if its condition ends before it raises. */
  state: string;
  value: number | null;
  raised_at: number;
  last_seen_at: number;
  /** When it was last notified (raised, or again after the rule's interval while active). */
  notified_at: number | null;
  acknowledged_at: number | null;
  acknowledged_by: number | null;
  acknowledged_by_name: string | null;
  ack_note: string | null;
  cleared_at: number | null;
  /** Who cleared it by hand and why (migration 0028); null otherwise. */
  cleared_by_name: string | null;
  clear_reason: string | null;
  /** When it escalated, unacknowledged past its rule's escalate_minutes (migration 0031). */
  escalated_at: number | null;
}

/** A silence or maintenance window (migration 0029): null station or rule = all of them. */
export interface AlarmSilencesTable {
  id: Generated<number>;
  group_id: number;
  ipp_id: number | null;
  rule_id: number | null;
  starts_at: number;
  ends_at: number;
  reason: string;
  created_by: number | null;
  created_by_name: string;
  created_at: number;
}

/** One comment on an alarm (migration 0028). */
export interface AlarmCommentsTable {
  id: Generated<number>;
  alarm_id: number;
  user_id: number | null;
  user_name: string;
  text: string;
  created_at: number;
}

/** A team's alarm webhook (migration 0018): where notices are posted and the secret that signs them. */
export interface AlarmWebhooksTable {
  group_id: number;
  url: string;
  secret: string;
  updated_at: number;
}

/** One webhook notice to deliver (migration 0018): retried with backoff until delivered or given up (failed_at). */
export interface AlarmDeliveriesTable {
  id: Generated<number>;
  group_id: number;
  alarm_id: number | null;
  /** webhook | email */
  channel: string;
  /** The e-mail address (channel email). */
  recipient: string | null;
  /** The JSON body (webhook, signed as sent) or the message as JSON {subject, text} (email). */
  payload: string;
  attempts: number;
  next_at: number;
  /** A process sending it holds it until then (several processes share the outbox). */
  leased_until: number | null;
  attempted_at: number | null;
  delivered_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  created_at: number;
}

/** One configuration version of an instrument (migration 0017): the configuration audit. */
export interface IppConfigHistoryTable {
  id: Generated<number>;
  ipp_id: number;
  version: number;
  /** JSON of the whole configuration (IppConfig) of this version. */
  config: string;
  /** register | edit | bulk | migration */
  source: string;
  changed_by: number | null;
  /** The account of who set it, kept when the user is removed. */
  changed_by_name: string | null;
  changed_at: number;
  /** When the device first reported running exactly this configuration; null = not (yet). */
  applied_at: number | null;
}

export interface UserViewsTable {
  user_id: number;
  group_id: number | null;
  /** JSON array of followed instrument ids, in the user's order. */
  ipp_ids: string;
  updated_at: number;
}

/** A team's taxon of a class (migration 0016); an empty name = "no taxon". */
export interface ClassTaxaTable {
  group_id: number;
  class_id: number;
  taxon_name: string;
  aphia_id: number | null;
  name_zh: string | null;
  updated_by: number | null;
  updated_at: number;
}

/** How far a console import is (migration 0015). */
export interface ImportProgressTable {
  id: string;
  user_id: number;
  /** upload | unpack | import | done | failed */
  phase: string;
  done: number;
  total: number;
  /** JSON ImportReport once done. */
  report: string | null;
  /** JSON { key, params } of the error once failed. */
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface ClassesTable {
  id: Generated<number>;
  name: string;
  label_index: number | null;
  system: number;
  /** The team that made it (migration 0011); null = shared: a system class or the superadmin's. */
  group_id: number | null;
  attention: Generated<number>;
  created_at: number;
}

/** The classes a team hides from its plain users (role user); administrators see them marked hidden. */
export interface ClassHiddenTable {
  class_id: number;
  group_id: number;
}

export interface TelemetryTable {
  id: Generated<number>;
  ipp_id: number;
  at: number;
  received_at: number;
  temperature_c: number | null;
  humidity_pct: number | null;
  volume_5min_ml: number | null;
  volume_total_l: number | null;
  ram_mb: number | null;
  storage_gb: number | null;
  cpu_temp_c: number | null;
  gpu_temp_c: number | null;
  wiper_state: string | null;
  wiper_clean_count: number | null;
  wiper_last_clean_at: number | null;
  uvc_port_frequency_hz: number | null;
  uvc_port_duty_pct: number | null;
  uvc_illuminator_frequency_hz: number | null;
  uvc_illuminator_duty_pct: number | null;
  uvc_voltage_v: number | null;
  uvc_current_a: number | null;
  lp_current_a: number | null;
  lp_voltage_v: number | null;
  lp_temperature_c: number | null;
  cb_current_a: number | null;
  cb_voltage_v: number | null;
  applied_config: string | null;
}

export interface RoisTable {
  id: Generated<number>;
  ipp_id: number;
  /** Capture time on the instrument. */
  roi_time: number;
  received_at: number;
  /** Content address of the original image in the blob store. */
  sha256: string;
  mime: string;
  bytes: number;
  width: number;
  height: number;
  size_px: number;
  /** Micrometres per pixel of this image where it differs from its station's (imports of another instrument's images); null = the station's. */
  pixel_size_um: number | null;
  roi_labelindex: Generated<number>;
  confidence: number | null;
  class_id: number | null;
  hi: Generated<number>;
  status: Generated<number>;
  collect_status: Generated<number>;
  is_demo_image: Generated<number>;
  invalid: Generated<number>;
  /** When the ROI was added to the Favorite gallery; null = not a favourite. */
  favorite_at: number | null;
  /** In the recycle bin since; null = live. Recycled ROIs count in no statistic. */
  deleted_at: number | null;
  deleted_by: number | null;
  /** 0 none, 1 waiting for review, 2 approved, 3 rejected. */
  review_status: Generated<number>;
  reviewed_at: number | null;
  /** Who gave the HI label (user id) and when (ms); null for AI/unidentified ROIs and HI labels of unknown origin. */
  labelled_by: number | null;
  labelled_at: number | null;
  /** The measured object's biovolume (its features' `biovolume`), px³; null until measured. */
  biovolume_px3: number | null;
  /** ROI_FLAG_BITS of the instrument's state at capture (migration 0021). */
  flags: Generated<number>;
}

/** A folder (roi-index): a class of a gallery, a temporary class or an ordinary folder. */
export interface RoiFoldersTable {
  id: Generated<number>;
  title: string;
  code: string;
  category_id: number;
  group_id: number | null;
  ipp_id: number | null;
  /** Owner of a temporary class (-5). */
  user_id: number | null;
  attention: Generated<number>;
  status: Generated<number>;
  /** Live member ROIs. */
  n: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface FolderRoisTable {
  folder_id: number;
  roi_id: number;
  added_at: number;
}

export interface ToolbarItemsTable {
  id: Generated<number>;
  user_id: number;
  category_id: number;
  code: string;
  title: string;
  created_at: number;
}

/** Live ROIs per station × recognition group (0 ui, 1 ai, 2 hi) × class (0 = not classified). */
export interface RoiClassCountsTable {
  ipp_id: number;
  kind: number;
  class_key: number;
  n: number;
}

export interface RoiFeaturesTable {
  roi_id: number;
  version: number;
  /** Float32 little-endian, FEATURE_NAMES order. */
  vec: Uint8Array;
  /** Int8 similarity descriptor. */
  sim: Uint8Array;
  /** JSON Measures. */
  measures: string;
  biovolume: number;
}

export interface AiModelsTable {
  id: Generated<number>;
  group_id: number;
  version: number;
  /** training | ready | failed */
  status: string;
  active: Generated<number>;
  feature_version: number;
  train_size: Generated<number>;
  classes: Generated<number>;
  cv_accuracy: number | null;
  cv_balanced_accuracy: number | null;
  model: string | null;
  /** JSON ModelReportData (training.ts): the cross-validation's per-class figures; null before issue 6's report. */
  report: string | null;
  error: string | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

export interface AiLabelsTable {
  roi_id: number;
  model_id: number;
  class_id: number;
  confidence: number;
  /** JSON [[class_id, p], …], best first. */
  top: string;
  low: number;
  labelled_at: number;
}

export interface AiThresholdsTable {
  group_id: number;
  /** 0 = the team's default. */
  class_id: number;
  threshold: number;
}

export interface JobsTable {
  id: Generated<number>;
  /** reidentify | train */
  kind: string;
  group_id: number;
  user_id: number | null;
  ipp_id: number | null;
  class_id: number | null;
  start_at: number | null;
  end_at: number | null;
  model_id: number | null;
  /** queued | running | done | cancelled | failed */
  status: string;
  total: Generated<number>;
  done: Generated<number>;
  changed: Generated<number>;
  cursor_time: number | null;
  cursor_id: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  attempts: Generated<number>;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/** ROIs per station × UTC hour × class (class_key = class id, 0 = not classified). */
export interface RoiRollupHourTable {
  ipp_id: number;
  hour: number;
  class_key: number;
  n: number;
}

export interface RoiRollupDayTable {
  ipp_id: number;
  /** Start of the day at the statistics offset, epoch ms. */
  day: number;
  class_key: number;
  n: number;
}

export interface RoiCountHourTable {
  ipp_id: number;
  hour: number;
  n: number;
}

export interface RoiTotalsTable {
  ipp_id: number;
  class_key: number;
  n: number;
}

export interface TelemetryRollupHourTable {
  ipp_id: number;
  hour: number;
  samples: number;
  temp_n: number;
  temp_sum: number;
  temp_min: number | null;
  temp_max: number | null;
  hum_n: number;
  hum_sum: number;
  volume_l: number;
}

/** Live ROIs and their summed biovolume per station, hour, class and size class (an octave of px³; -1 unmeasured). */
export interface RoiSizeHourTable {
  ipp_id: number;
  hour: number;
  class_key: number;
  size_class: number;
  n: number;
  bv_px3: number;
}

/** The same per statistics day. */
export type RoiSizeDayTable = Omit<RoiSizeHourTable, 'hour'> & { day: number };

/** The same sums per statistics day (start of the day at STATS_UTC_OFFSET). */
export type TelemetryRollupDayTable = Omit<TelemetryRollupHourTable, 'hour'> & { day: number };

/** Per station and UTC hour: what the station should have delivered and what arrived (issue 23, completeness). */
export interface CompletenessHourTable {
  ipp_id: number;
  hour: number;
  /** Seconds covered by reports no further apart than the offline threshold. */
  online_s: Generated<number>;
  /** Of those, seconds in which water flowed (all of them for a device that reports no volume). */
  sampling_s: Generated<number>;
  /** Frame rate run × sampling seconds. */
  frames_expected: Generated<number>;
  /** Images the device's counter says it made, spread over the time between its reports. */
  expected: Generated<number>;
  /** Counter readings that contributed to `expected` (0: unknown, not zero). */
  expected_reports: Generated<number>;
  /** Images stored with a capture time in this hour, counted at arrival. */
  received: Generated<number>;
}

/** Per station and hour: telemetry samples, wiper states, and count/sum/min/max of each trend series (issue 23). */
export type TelemetryTrendHourTable = {
  ipp_id: number;
  hour: number;
  samples: number;
  wiper_cleaning_n: number;
  wiper_fault_n: number;
} & { [K in TrendSeriesKey as `${K}_n` | `${K}_sum`]: number } & {
  [K in TrendSeriesKey as `${K}_min` | `${K}_max`]: number | null;
};

/** The same per statistics day. */
export type TelemetryTrendDayTable = Omit<TelemetryTrendHourTable, 'hour'> & { day: number };

/** One change of an ROI's label (issue 25): who (a user, or a model), by which action, from and to. */
export interface RoiLabelEventsTable {
  id: Generated<number>;
  roi_id: number;
  at: number;
  user_id: number | null;
  model_id: number | null;
  /** The bulk action code ('23', '81', …) or another source: 'reidentify', 'set-label', 'to-hi', 'undo'. */
  action: string;
  from_class_id: number | null;
  from_hi: number;
  to_class_id: number | null;
  to_hi: number;
  /** The bulk action (bulk_actions.id) it was part of; null when none. */
  bulk_id: number | null;
}

/** A user's last bulk action, kept so it can be undone for a while (issue 25, modules/undo). */
export interface BulkActionsTable {
  id: Generated<number>;
  user_id: number;
  code: string;
  category_id: number;
  created_at: number;
  affected: number;
  undone_at: number | null;
  /** JSON folder ids the action created. */
  created_folders: string;
}

/** An ROI a bulk action changed: its state before and after (JSON RoiState of undo.repository.ts). */
export interface BulkActionRoisTable {
  bulk_id: number;
  roi_id: number;
  before: string;
  after: string;
}

/** A folder membership a bulk action added (1) or removed (0, with when it had been added). */
export interface BulkActionMembersTable {
  bulk_id: number;
  folder_id: number;
  roi_id: number;
  added: number;
  added_at: number;
}

export interface Database {
  teams: TeamsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  settings: SettingsTable;
  translations: TranslationsTable;
  ipps: IppsTable;
  ipp_config_history: IppConfigHistoryTable;
  alarm_rules: AlarmRulesTable;
  alarms: AlarmsTable;
  alarm_comments: AlarmCommentsTable;
  alarm_silences: AlarmSilencesTable;
  alarm_webhooks: AlarmWebhooksTable;
  alarm_deliveries: AlarmDeliveriesTable;
  user_views: UserViewsTable;
  classes: ClassesTable;
  import_progress: ImportProgressTable;
  class_taxa: ClassTaxaTable;
  class_hidden: ClassHiddenTable;
  telemetry: TelemetryTable;
  rois: RoisTable;
  roi_rollup_hour: RoiRollupHourTable;
  roi_totals: RoiTotalsTable;
  telemetry_rollup_hour: TelemetryRollupHourTable;
  roi_rollup_day: RoiRollupDayTable;
  roi_count_hour: RoiCountHourTable;
  telemetry_rollup_day: TelemetryRollupDayTable;
  telemetry_trend_hour: TelemetryTrendHourTable;
  completeness_hour: CompletenessHourTable;
  telemetry_trend_day: TelemetryTrendDayTable;
  roi_size_hour: RoiSizeHourTable;
  roi_size_day: RoiSizeDayTable;
  rollup_meta: { key: string; value: string };
  roi_folders: RoiFoldersTable;
  folder_rois: FolderRoisTable;
  roi_label_events: RoiLabelEventsTable;
  bulk_actions: BulkActionsTable;
  bulk_action_rois: BulkActionRoisTable;
  bulk_action_members: BulkActionMembersTable;
  toolbar_items: ToolbarItemsTable;
  roi_class_counts: RoiClassCountsTable;
  roi_features: RoiFeaturesTable;
  ai_models: AiModelsTable;
  ai_labels: AiLabelsTable;
  ai_thresholds: AiThresholdsTable;
  jobs: JobsTable;
}
