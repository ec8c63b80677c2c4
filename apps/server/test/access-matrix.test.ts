import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { buildWorld, type World } from './helpers/actors.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { dialects } from './helpers/dialects.ts';
import { operationsOf } from './helpers/fuzz.ts';

/**
 * The access-control matrix (issue 8, ASVS V4): every route that takes an object id, called on an object of team A by
 * each kind of caller. The rules (docs/decisions.md, "Who manages whom", "No refusal leaks existence"):
 * - superadmin and team A's administrator (the owner) reach the object (teams themselves: superadmin only);
 * - team A's user reads and classifies, and is refused (1011) what only administrators may do;
 * - team B's administrator and user are refused, and their answer is exactly the answer for an id that names nothing
 *   (same status, code, message and field), so a refusal never tells whether the object exists;
 * - without a token, or with a device key instead, 1010.
 * Each call is made twice, with the real id and with one that names nothing, and the two answers compared.
 */

type Actor = 'superadmin' | 'owner' | 'sameTeamUser' | 'otherAdmin' | 'otherUser' | 'anonymous' | 'deviceKey';
const ACTORS: Actor[] = ['superadmin', 'owner', 'sameTeamUser', 'otherAdmin', 'otherUser', 'anonymous', 'deviceKey'];
type Rule = 'allow' | 'refuse' | 'hidden' | 'token';

interface Objects {
  teamA: number;
  a1: { id: number; key: string; devId: string };
  rois: number[];
  folder: number;
  folderCode: string;
  library: number;
  gallery: number;
  hiClass: number;
  job: number;
  model: number;
}

type Id = number | string;
interface Req {
  method: 'GET' | 'POST';
  url: string;
  payload?: object;
}
const get = (url: string): Req => ({ method: 'GET', url });
const post = (url: string, payload?: object): Req => ({ method: 'POST', url, ...(payload ? { payload } : {}) });

interface Case {
  /** "METHOD /path" as in the OpenAPI description. */
  route: string;
  object: 'team' | 'user' | 'instrument' | 'folder' | 'class' | 'ROI' | 'job' | 'model' | 'export';
  request: (id: Id, o: Objects) => Req;
  /** Team A's object for this call; a fresh one where the call consumes it. */
  target: (o: Objects, f: Fresh) => Promise<Id> | Id;
  /** An id of the same kind that names nothing. */
  missing?: Id;
  /**
   * Team A's user: reads and classifies ('allow'), or is refused ('refuse', 1011); 'hidden' for another user's own
   * object (a temporary class), refused exactly as a missing one.
   */
  user: 'allow' | 'refuse' | 'hidden';
  /** Team A's administrator: 'refuse' where only a superadmin may act (teams). */
  owner?: 'allow' | 'refuse';
  /** 'hidden' where the object is one user's own (the superadmin does not see it either). */
  superadmin?: 'allow' | 'hidden';
  /** Classes are global (docs/decisions.md): another team's administrator is then allowed, its user as team A's. */
  scope?: 'team' | 'global';
  /**
   * With scope 'global': what another team's administrator gets where only the owner may act ('refuse', 1011: a
   * class is listed to every team, so the refusal tells nothing new; docs/decisions.md "Class ownership").
   */
  otherAdmin?: 'refuse';
  /** The code an allowed caller gets when reaching the object is not a success (a model not trained yet). */
  allowedCode?: number;
}

interface Fresh {
  user(): Promise<number>;
  ipp(): Promise<number>;
  job(): Promise<number>;
  folder(category: number): Promise<number>;
  recycled(): Promise<number>;
  team(): Promise<number>;
  /** Ends team A's training jobs, so that the next caller may start one. */
  endTraining(): Promise<void>;
}

const MISSING = 2_000_000_000;
let serial = 0;
const title = (word: string) => `${String(100 + (++serial % 800))}${word}${serial}`;

const CASES: Case[] = [
  // Teams, and lists narrowed to one team
  {
    route: 'POST /api/group/save',
    object: 'team',
    request: (id) => post('/api/group/save', { id, name: 'Team A' }),
    target: (o) => o.teamA,
    user: 'refuse',
    owner: 'refuse',
  },
  {
    route: 'POST /api/group/delete',
    object: 'team',
    request: (id) => post('/api/group/delete', { id }),
    target: (_o, f) => f.team(),
    user: 'refuse',
    owner: 'refuse',
  },
  {
    route: 'GET /api/user/index',
    object: 'team',
    request: (id) => get(`/api/user/index?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'refuse',
  },
  {
    route: 'GET /api/ipp/index',
    object: 'team',
    request: (id) => get(`/api/ipp/index?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'allow',
  },
  {
    route: 'GET /api/views/roi24',
    object: 'team',
    request: (id) => get(`/api/views/roi24?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/categorys',
    object: 'team',
    request: (id) => get(`/api/roi/categorys?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'allow',
  },
  {
    route: 'GET /api/setting/get-group-view',
    object: 'team',
    request: (id) => get(`/api/setting/get-group-view?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'allow',
  },
  {
    route: 'POST /api/roi-index/rsync',
    object: 'team',
    request: (id) => post(`/api/roi-index/rsync?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'refuse',
  },
  {
    route: 'GET /api/ai/models',
    object: 'team',
    request: (id) => get(`/api/ai/models?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'refuse',
  },
  {
    route: 'GET /api/ai/thresholds',
    object: 'team',
    request: (id) => get(`/api/ai/thresholds?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'refuse',
  },
  {
    route: 'POST /api/ai/thresholds',
    object: 'team',
    request: (id) => post('/api/ai/thresholds', { group_id: id, default: 0.6 }),
    target: (o) => o.teamA,
    user: 'refuse',
  },
  {
    route: 'GET /api/ai/jobs',
    object: 'team',
    request: (id) => get(`/api/ai/jobs?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'allow',
  },
  {
    route: 'POST /api/ai/models/train',
    object: 'team',
    request: (id) => post('/api/ai/models/train', { group_id: id }),
    target: async (o, f) => {
      await f.endTraining();
      return o.teamA;
    },
    user: 'refuse',
  },
  // Users
  {
    route: 'GET /api/user/view',
    object: 'user',
    request: (id) => get(`/api/user/view?id=${id}`),
    target: (_o, f) => f.user(),
    user: 'refuse',
  },
  {
    route: 'POST /api/user/save',
    object: 'user',
    request: (id, o) =>
      post('/api/user/save', {
        id,
        account: `edit${++serial}`,
        name: 'Edited',
        phone: '123456',
        email: 'e@x.org',
        group_id: o.teamA,
        role: 'user',
      }),
    target: (_o, f) => f.user(),
    user: 'refuse',
  },
  {
    route: 'POST /api/user/delete',
    object: 'user',
    request: (id) => post('/api/user/delete', { id }),
    target: (_o, f) => f.user(),
    user: 'refuse',
  },
  // Instruments
  {
    route: 'POST /api/site/ipp-one',
    object: 'instrument',
    request: (id) => post('/api/site/ipp-one', { id }),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'POST /api/ipp/rotate-key',
    object: 'instrument',
    request: (id) => post('/api/ipp/rotate-key', { id }),
    target: (_o, f) => f.ipp(),
    user: 'refuse',
  },
  {
    route: 'GET /api/ipp/config-history',
    object: 'instrument',
    request: (id) => get(`/api/ipp/config-history?id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'POST /api/ipp/apply-config',
    object: 'instrument',
    request: (id) => post('/api/ipp/apply-config', { ids: [id], config: { wiper_strokes: 3 } }),
    target: (_o, f) => f.ipp(),
    user: 'refuse',
  },
  {
    route: 'POST /api/ipp/delete',
    object: 'instrument',
    request: (id) => post('/api/ipp/delete', { id }),
    target: (_o, f) => f.ipp(),
    user: 'refuse',
  },
  {
    route: 'GET /api/views/roi30',
    object: 'instrument',
    request: (id) => get(`/api/views/roi30?ipp_id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'GET /api/views/rois',
    object: 'instrument',
    request: (id) => get(`/api/views/rois?ipp_id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    // The class list as a team's users see it (issue 20: a team hides classes from its own users).
    route: 'GET /api/tool/sys-init',
    object: 'team',
    request: (id) => get(`/api/tool/sys-init?group_id=${id}`),
    target: (o) => o.teamA,
    user: 'allow',
  },
  {
    route: 'GET /api/roi-index/index',
    object: 'instrument',
    request: (id) => get(`/api/roi-index/index?category_id=-100&ipp_id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/index',
    object: 'instrument',
    request: (id) => get(`/api/roi/index?category_id=-100&ipp_id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/matching-ids',
    object: 'instrument',
    request: (id) => get(`/api/roi/matching-ids?category_id=-100&ipp_id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/all',
    object: 'instrument',
    request: (id) => get(`/api/roi/all?ipp_id=${id}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'POST /api/setting/set-group-view',
    object: 'instrument',
    request: (id, o) => post('/api/setting/set-group-view', { group_id: o.teamA, ids: [id] }),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/get-site-roi',
    object: 'instrument',
    request: (id) => get(`/api/roi/get-site-roi?dev_id=${id}&period=7d`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/ipp/telemetry-trend',
    object: 'instrument',
    request: (id) => get(`/api/ipp/telemetry-trend?dev_id=${id}&period=7d`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/ipp/completeness',
    object: 'instrument',
    request: (id) => get(`/api/ipp/completeness?dev_id=${id}&period=7d`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/ai/corrected-counts',
    object: 'instrument',
    request: (id) => get(`/api/ai/corrected-counts?dev_id=${id}&start=0&end=86400000`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/roi/export-site-data',
    object: 'export',
    request: (id) => get(`/api/roi/export-site-data?dev_id=${id}&period=7d`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/ecology/get-site-ecology',
    object: 'instrument',
    request: (id) => get(`/api/ecology/get-site-ecology?dev_id=${id}&period=7d`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/ecology/export-site-ecology',
    object: 'export',
    request: (id) => get(`/api/ecology/export-site-ecology?dev_id=${id}&period=7d&table=nbss`),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'allow',
  },
  {
    route: 'GET /api/alarm/export',
    object: 'export',
    request: (id) => get(`/api/alarm/export?ipp_id=${id}&from=${Date.UTC(2026, 10, 1)}&to=${Date.UTC(2026, 11, 1)}`),
    target: (o) => o.a1.id,
    user: 'allow',
  },
  // No model trained: reaching the station answers "train one first", which differs from an unknown station.
  {
    route: 'POST /api/roi/re-identify',
    object: 'instrument',
    request: (id) => post('/api/roi/re-identify', { dev_id: id, Roi_time_s: '-24 hour' }),
    target: (o) => o.a1.devId,
    missing: 'NOPE404',
    user: 'refuse',
    allowedCode: 1002,
  },
  {
    route: 'POST /api/roi-index/save',
    object: 'instrument',
    request: (id) => post('/api/roi-index/save', { title: title('Cls'), category_id: -100, ipp_id: id }),
    target: (o) => o.a1.id,
    user: 'refuse',
  },
  // ROIs
  {
    route: 'GET /api/roi/get-roi-details',
    object: 'ROI',
    request: (id) => get(`/api/roi/get-roi-details?roi_id=${id}`),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/label-history',
    object: 'ROI',
    request: (id) => get(`/api/roi/label-history?roi_id=${id}`),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'POST /api/roi/set-favorite',
    object: 'ROI',
    request: (id) => post('/api/roi/set-favorite', { roi_id: id, favorite: true }),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/get-adjacent-roi',
    object: 'ROI',
    request: (id, o) => get(`/api/roi/get-adjacent-roi?category_id=-100&ipp_id=${o.a1.id}&roi_id=${id}`),
    target: (o) => o.rois[1]!,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/set-roi-label-index',
    object: 'ROI',
    request: (id) => get(`/api/roi/set-roi-label-index?roi_id=${id}&roi_labelindex=1`),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'POST /api/roi/save-move',
    object: 'ROI',
    request: (id, o) => post('/api/roi/save-move', { type: '23', category_id: -100, roi_ids: [id], target_id: o.hiClass }),
    target: (o) => o.rois[3]!,
    user: 'allow',
  },
  {
    route: 'POST /api/roi/operator-site-roi',
    object: 'ROI',
    request: (id) => post('/api/roi/operator-site-roi', { type: 'copy', roi_ids: [id] }),
    target: (o) => o.rois[0]!,
    user: 'refuse',
  },
  {
    route: 'POST /api/roi/operate-roi',
    object: 'ROI',
    request: (id, o) =>
      post('/api/roi/operate-roi', { type: 'copy', roi_index_code: o.folderCode, roi_ids: [id], category_id: 0 }),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'POST /api/roi/delete',
    object: 'ROI',
    request: (id, o) => post(`/api/roi/delete?roi_index_id=${o.folder}`, { roi_ids: [id] }),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'POST /api/roi-group/re-bin',
    object: 'ROI',
    request: (id) => post('/api/roi-group/re-bin', { action: 're', roi_ids: [id] }),
    target: (_o, f) => f.recycled(),
    user: 'refuse',
  },
  {
    route: 'POST /api/roi/export',
    object: 'export',
    request: (id) => post('/api/roi/export', { format: 'csv', roi_ids: [id] }),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'POST /api/python/feature',
    object: 'ROI',
    request: (id) => post('/api/python/feature', { roi_id: id }),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'GET /api/ai/roi',
    object: 'ROI',
    request: (id) => get(`/api/ai/roi?roi_id=${id}`),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'GET /api/ai/similar',
    object: 'ROI',
    request: (id) => get(`/api/ai/similar?roi_id=${id}`),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  {
    route: 'POST /enhance',
    object: 'ROI',
    request: (id) => post('/enhance', { roi_id: id }),
    target: (o) => o.rois[0]!,
    user: 'allow',
  },
  // The team library holds no reference image yet: reaching the ROI answers "no references".
  {
    route: 'POST /folders/query',
    object: 'ROI',
    request: (id) => post('/folders/query', { roi_id: id }),
    target: (o) => o.rois[0]!,
    user: 'allow',
    allowedCode: 1002,
  },
  {
    route: 'POST /folders/add',
    object: 'ROI',
    request: (id, o) => post('/folders/add', { roi_index_id: o.library, roi_ids: [id] }),
    target: (o) => o.rois[0]!,
    user: 'refuse',
  },
  {
    route: 'POST /folders/delete',
    object: 'folder',
    request: (id, o) => post('/folders/delete', { roi_index_id: id, roi_ids: [o.rois[0]] }),
    target: (o) => o.library,
    user: 'refuse',
  },
  // Folders and classes (ordinary folders are written by the whole team)
  {
    route: 'GET /api/folder/get-folder-by-roi-index',
    object: 'folder',
    request: (id) => get(`/api/folder/get-folder-by-roi-index?roi_index_id=${id}`),
    target: (o) => o.folder,
    user: 'allow',
  },
  {
    route: 'GET /api/roi/get-roi-by-code',
    object: 'folder',
    request: (id) => get(`/api/roi/get-roi-by-code?roi_index_code=${id}`),
    target: (o) => o.folderCode,
    missing: 'f:2000000000',
    user: 'allow',
  },
  {
    route: 'POST /api/roi-index/rename',
    object: 'folder',
    request: (id) => post('/api/roi-index/rename', { roi_index_id: id, title: title('Renamed') }),
    target: (o) => o.folder,
    user: 'allow',
  },
  {
    route: 'POST /api/roi-index/change-status',
    object: 'class',
    request: (id) => post('/api/roi-index/change-status', { class_id: id, attention: true }),
    target: (o) => o.hiClass,
    user: 'refuse',
    scope: 'global',
    // Team A made the class: highlighting it (seen by every team) is team A's; issue 20.
    otherAdmin: 'refuse',
  },
  {
    route: 'POST /api/roi-index/delete-folder',
    object: 'folder',
    request: (id) => post('/api/roi-index/delete-folder', { roi_index_id: id }),
    target: (_o, f) => f.folder(0),
    user: 'allow',
  },
  {
    route: 'POST /api/roi-index/batch-delete',
    object: 'folder',
    request: (id) => post('/api/roi-index/batch-delete', { ids: [id] }),
    target: (_o, f) => f.folder(0),
    user: 'allow',
  },
  {
    route: 'POST /api/folder/operate-folder',
    object: 'folder',
    request: (id) => post('/api/folder/operate-folder', { type: 'copy', roi_index_id: id, category_id: -2 }),
    target: (o) => o.folder,
    user: 'refuse',
  },
  {
    route: 'POST /api/folder/operator-site-folder',
    object: 'folder',
    request: (id) => post('/api/folder/operator-site-folder', { type: 'copy', roi_index_id: id }),
    target: (o) => o.gallery,
    user: 'refuse',
  },
  {
    route: 'POST /api/folder/delete-temporary-folder',
    object: 'folder',
    request: (id) => post('/api/folder/delete-temporary-folder', { roi_index_id: id }),
    target: (_o, f) => f.folder(-5),
    user: 'hidden',
    superadmin: 'hidden',
  },
  // Jobs and models (a model still training: reaching it answers "not trained yet")
  {
    route: 'GET /api/ai/job',
    object: 'job',
    request: (id) => get(`/api/ai/job?job_id=${id}`),
    target: (o) => o.job,
    user: 'allow',
  },
  {
    route: 'POST /api/ai/jobs/cancel',
    object: 'job',
    request: (id) => post('/api/ai/jobs/cancel', { job_id: id }),
    target: (_o, f) => f.job(),
    user: 'refuse',
  },
  {
    route: 'GET /api/ai/model/report',
    object: 'model',
    request: (id) => get(`/api/ai/model/report?model_id=${id}`),
    target: (o) => o.model,
    user: 'refuse',
    allowedCode: 1002,
  },
  {
    route: 'POST /api/ai/models/activate',
    object: 'model',
    request: (id) => post('/api/ai/models/activate', { model_id: id }),
    target: (o) => o.model,
    user: 'refuse',
    allowedCode: 1002,
  },
];

/**
 * Routes with an id-like field that are not in the matrix, and why. Anything the OpenAPI description adds with such a
 * field fails the coverage test until it is placed here or above.
 */
const NOT_OBJECT_ROUTES: Record<string, string> = {
  'GET /api/alarm/rules': 'a team’s rules by group_id: another team’s is 1011 except for the superadmin (alarms.test.ts)',
  'GET /api/alarm/webhook':
    'the team’s own webhook: another team’s group_id is 1011 except for the superadmin (alarm-webhooks.test.ts)',
  'POST /api/alarm/save-webhook':
    'sets the team’s own webhook: another team’s group_id is 1011 except for the superadmin (alarm-webhooks.test.ts)',
  'GET /api/alarm/list': 'always filtered to the caller’s team; another team’s ipp_id lists nothing (alarms.test.ts)',
  'POST /api/alarm/save-rule':
    'another team’s rule id or station id is refused as a missing one, users get 1011 (alarms.test.ts, team isolation)',
  'POST /api/alarm/remove-rule': 'another team’s rule is refused as a missing one, users get 1011 (alarms.test.ts)',
  'POST /api/alarm/acknowledge': 'another team’s alarm is refused as a missing one (alarms.test.ts, team isolation)',
  'POST /api/alarm/clear':
    'another team’s alarm is refused as a missing one, users get 1011 (alarm-severity.test.ts, clearing by hand)',
  'GET /api/alarm/comments': 'another team’s alarm is refused as a missing one (alarm-severity.test.ts, comment thread)',
  'POST /api/alarm/comment': 'another team’s alarm is refused as a missing one (alarm-severity.test.ts, comment thread)',
  'POST /api/alarm/test-webhook':
    'the team’s own webhook: another team’s group_id is 1011 except for the superadmin, users get 1011 (alarm-webhooks.test.ts)',
  'GET /api/alarm/silences':
    'a team’s silences by group_id: another team’s is 1011 except for the superadmin (alarm-severity.test.ts)',
  'POST /api/alarm/save-silence':
    'another team’s station or rule is refused as a missing one; another team’s group_id is 1011 except for the superadmin (alarm-severity.test.ts)',
  'POST /api/alarm/end-silence': 'another team’s silence is refused as a missing one (alarm-severity.test.ts, silences)',
  'GET /api/roi/file/{name}':
    'public by design: the name is the SHA-256 of the image, an unguessable capability that <img> loads without a token',
  'POST /api/ipp/save': 'registers or edits; the id and the team in the body are checked by admin-permissions.test.ts',
  'POST /api/roi/import': 'a zip into a station by dev_id, checked by import.test.ts (another team’s = an unknown one)',
  'POST /api/taxa/save-class-taxon':
    'a team’s own mapping: group_id is checked like class visibility (another team’s is 1011), class ids are shared by all teams; taxa.test.ts',
  'GET /api/roi/import-progress':
    'the caller’s own import, by the name it chose; anyone else’s is “no such import” (ecotaxa-import.test.ts)',
  'POST /uploads': 'an upload for classification into the caller’s own team; checked by recognition.test.ts',
  'POST /api/roi-index/add-tool-bar': 'the caller’s own toolbar (category codes, no other user’s object)',
  'POST /api/roi-index/delete-tool-bar': 'removes an entry of the caller’s own toolbar',
  'GET /api/roi/actions': 'the actions a category kind offers the caller’s role; never reads the folder: one answer for every id',
  'POST /api/roi/undo':
    'the caller’s own last bulk action: any other id, another user’s included, is “nothing to undo” exactly as a missing one (undo.test.ts)',
  'POST /api/roi-group/delete': 'empties the caller’s team recycle bin or own temporary classes: no id from the client',
};

describe.each(dialects)('the access-control matrix on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let o: Objects;
  let fresh: Fresh;
  const tokens: Partial<Record<Actor, string>> = {};

  const as = (token: string, req: Req) =>
    env.app.inject({
      method: req.method,
      url: req.url,
      headers: { 'x-token': token },
      ...(req.payload ? { payload: req.payload } : {}),
    });
  const data = async <T>(token: string, req: Req): Promise<T> => {
    const res = body(await as(token, req));
    if (res.code !== 1000) throw new Error(`${req.url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };

  beforeAll(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    await env.db.kysely
      .insertInto('settings')
      .values({ key: 'team_max_users', value: '1000', updated_at: 0 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    Object.assign(tokens, {
      superadmin: w.tokens.superadmin,
      owner: w.tokens.ownAdmin,
      sameTeamUser: w.tokens.user,
      otherAdmin: w.tokens.otherAdmin,
      otherUser: await login(env, 'user_b'),
    });
    const owner = w.tokens.ownAdmin!;
    const a1 = await registerIpp(env, owner, w.teamA, 'A1');
    await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    const upload = async (seed: number, label: number) => {
      const res = body(
        await uploadRoi(
          env,
          a1.key,
          { captured_at: env.clock.now - (100 - (seed % 90)) * 60_000, size_px: 100 + seed, label_index: label },
          await pngOf(seed),
        ),
      );
      if (res.code !== 1000) throw new Error(JSON.stringify(res));
      return (res.data as { roi_id: number }).roi_id;
    };
    // The last one unlabelled: labelling by hand takes no AI-labelled image.
    const rois = [await upload(1, 1), await upload(2, 1), await upload(3, 1), await upload(4, 0)];
    const folder = (category: number) =>
      data<{ roi_index_id: number; roi_index_code: string }>(
        owner,
        post('/api/roi-index/save', {
          title: title('Folder'),
          category_id: category,
          ...(category === -3 ? { ipp_id: a1.id } : {}),
        }),
      );
    const hi = await data<{ class_id: number }>(
      owner,
      post('/api/roi-index/save', { title: '009Noctiluca', category_id: -100, ipp_id: a1.id }),
    );
    const now = env.clock.now;
    const jobRow = (status: string) => ({
      kind: 'reidentify',
      group_id: w.teamA,
      user_id: w.ids.ownAdmin,
      ipp_id: a1.id,
      class_id: null,
      start_at: now - 3_600_000,
      end_at: now,
      model_id: null,
      status,
      cursor_time: null,
      cursor_id: null,
      lease_owner: null,
      lease_until: null,
      error: null,
      created_at: now,
      updated_at: now,
    });
    const insertJob = async (status: string) =>
      (await env.db.kysely.insertInto('jobs').values(jobRow(status)).returning('id').executeTakeFirstOrThrow()).id;
    const model = await env.db.kysely
      .insertInto('ai_models')
      .values({
        group_id: w.teamA,
        version: 1,
        status: 'training',
        feature_version: 1,
        cv_accuracy: null,
        cv_balanced_accuracy: null,
        model: null,
        report: null,
        error: null,
        created_by: w.ids.ownAdmin,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ordinary = await folder(0);
    o = {
      teamA: w.teamA,
      a1: { ...a1, devId: 'A1' },
      rois,
      folder: ordinary.roi_index_id,
      folderCode: ordinary.roi_index_code,
      library: (await folder(-2)).roi_index_id,
      gallery: (await folder(-3)).roi_index_id,
      hiClass: hi.class_id,
      job: await insertJob('done'),
      model: model.id,
    };
    fresh = {
      user: () => createUser(env, `target${++serial}`, 'user', { groupId: w.teamA }),
      ipp: async () => (await registerIpp(env, owner, w.teamA, `AX${++serial}`)).id,
      job: () => insertJob('queued'),
      folder: async (category) => (await folder(category)).roi_index_id,
      recycled: async () => {
        const id = await upload(1000 + ++serial, 1);
        await env.db.kysely.updateTable('rois').set({ deleted_at: env.clock.now }).where('id', '=', id).execute();
        return id;
      },
      endTraining: async () => {
        await env.db.kysely.updateTable('jobs').set({ status: 'cancelled' }).where('kind', '=', 'train').execute();
      },
      team: async () =>
        (
          await env.db.kysely
            .insertInto('teams')
            .values({ name: `Empty${++serial}`, created_at: 0 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
    };
  });
  afterAll(() => env.close());

  const send = (actor: Actor, req: Req) =>
    env.app.inject({
      method: req.method,
      url: req.url,
      headers: {
        'x-lang': 'en',
        ...(actor === 'deviceKey' ? { 'x-device-key': o.a1.key } : {}),
        ...(tokens[actor] ? { 'x-token': tokens[actor] } : {}),
      },
      ...(req.payload ? { payload: req.payload } : {}),
    });

  /** What a caller learns from an answer: status, code, message, field, and (on success) the data. */
  const answer = (res: LightMyRequestResponse) => {
    if (!/json/.test(String(res.headers['content-type']))) {
      return {
        status: res.statusCode,
        code: res.statusCode === 200 ? 1000 : -1,
        msg: '',
        field: null,
        data: `${res.rawPayload.length} bytes`,
      };
    }
    const b = body(res);
    const ok = b.code === 1000;
    return {
      status: res.statusCode,
      code: b.code,
      msg: ok ? '' : b.msg,
      field: b.model?.field ?? null,
      data: ok ? JSON.stringify(b.data) : '',
    };
  };

  const ruleOf = (c: Case, actor: Actor): Rule => {
    if (actor === 'anonymous' || actor === 'deviceKey') return 'token';
    if (actor === 'superadmin') return c.superadmin ?? 'allow';
    if (actor === 'otherAdmin' && c.scope === 'global' && c.otherAdmin) return c.otherAdmin;
    if (actor === 'owner' || (actor === 'otherAdmin' && c.scope === 'global')) return c.owner ?? 'allow';
    if (actor === 'sameTeamUser' || (actor === 'otherUser' && c.scope === 'global')) return c.user;
    return 'hidden';
  };

  it('has a case for every route whose request names an object', () => {
    const idField = /^(id|ids|dev_id|roi_index_code)$|_ids?$/;
    const ops = operationsOf(env.app.swagger());
    const named = ops
      .filter((op) =>
        [...op.pathParams.map((p) => p.name), ...op.query.map((q) => q.name), ...Object.keys(op.body?.properties ?? {})].some(
          (f) => idField.test(f) || op.pathParams.some((p) => p.name === f),
        ),
      )
      .map((op) => `${op.method} ${op.path}`);
    const covered = new Set([...CASES.map((c) => c.route), ...Object.keys(NOT_OBJECT_ROUTES)]);
    expect(named.filter((r) => !covered.has(r))).toEqual([]);
    const declared = new Set(ops.map((op) => `${op.method} ${op.path}`));
    expect([...covered].filter((r) => !declared.has(r))).toEqual([]);
    // Every kind of object the issue names is in the matrix.
    expect(new Set(CASES.map((c) => c.object))).toEqual(
      new Set(['team', 'user', 'instrument', 'folder', 'class', 'ROI', 'job', 'model', 'export']),
    );
  });

  it.each(CASES)('$route ($object)', async (c) => {
    for (const actor of ACTORS) {
      const r = answer(await send(actor, c.request(await c.target(o, fresh), o)));
      const m = answer(await send(actor, c.request(c.missing ?? MISSING, o)));
      const rule = ruleOf(c, actor);
      const where = `${actor} (${rule}) on ${c.route}: real ${JSON.stringify(r).slice(0, 400)} / missing ${JSON.stringify(m).slice(0, 300)}`;
      switch (rule) {
        case 'allow':
          expect(r.code, where).toBe(c.allowedCode ?? 1000);
          expect(r, `${where}: the object must be reached, not answered as a missing one`).not.toEqual(m);
          break;
        case 'refuse':
          // Team A's own user may see the object exists (it is their team's); only the role is refused here.
          expect(r.code, where).toBe(1011);
          break;
        case 'hidden':
          expect(r.code, where).not.toBe(1000);
          expect(r, `${where}: a refusal must not tell whether the object exists`).toEqual(m);
          break;
        case 'token':
          expect(r.code, where).toBe(1010);
          expect(r, where).toEqual(m);
          break;
      }
    }
  });
});
