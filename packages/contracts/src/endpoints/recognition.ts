/** Calls answered by apps/server/src/modules/recognition/recognition.routes.ts. */
import { get, post, postRoot } from './define.ts';

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
