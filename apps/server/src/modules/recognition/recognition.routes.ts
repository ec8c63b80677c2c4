import multipart from '@fastify/multipart';
import { API, ResultCode } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import { assertBodyArriving, multipartFailure } from '../../http/upload.ts';
import { ok } from '../../http/envelope.ts';
import { checkImage } from '../rois/images.ts';
import type { AbundanceService } from './abundance.service.ts';
import type { JobsService } from './jobs.service.ts';
import type { ModelsService } from './models.service.ts';
import type { RecognitionService } from './recognition.service.ts';
import type { SimilarityService } from './similarity.service.ts';

const signedIn = { access: 'signed-in' as const };
const tags = ['recognition'];
/** An image sent to POST /uploads: at most this large. */
export const UPLOAD_MAX = 10 * 1024 * 1024;

/** The services the recognition routes call, one concern each. */
export interface RecognitionServices {
  recognition: RecognitionService;
  models: ModelsService;
  jobs: JobsService;
  similarity: SimilarityService;
  abundance: AbundanceService;
}

/** Recognition under the api prefix (docs/recognition.md). */
export const recognitionRoutes = ({
  recognition,
  models,
  jobs,
  similarity,
  abundance,
}: RecognitionServices): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.aiCorrectedCounts, {
        tags,
        summary: "A station's counts per class, the model-labelled part corrected for the models' known confusions",
      }),
      config: { ...signedIn, expensive: true },
      handler: async (request) => ok(await abundance.correctedCounts(requireAuth(request).user, request.query)),
    });
    app.route({
      ...endpoint(API.pythonFeature, { tags, summary: "Compute (again) and store ROIs' feature vectors and morphology" }),
      config: signedIn,
      handler: async (request) => ok(await recognition.computeFeatures(requireAuth(request).user, request.body)),
    });
    app.route({
      ...endpoint(API.aiRoi, { tags, summary: "An ROI's AI label and morphology" }),
      config: signedIn,
      handler: async (request) => ok(await recognition.insight(requireAuth(request).user, request.query.roi_id)),
    });
    app.route({
      ...endpoint(API.aiSimilar, { tags, summary: 'More like this: nearest ROIs of the team' }),
      config: { ...signedIn, expensive: true },
      handler: async (request) =>
        ok(await similarity.similar(requireAuth(request).user, request.query.roi_id, request.query.limit)),
    });
    app.route({
      ...endpoint(API.aiModels, { tags, summary: "The team's model versions" }),
      config: { access: ADMINS },
      handler: async (request) => ok(await models.listModels(requireAuth(request).user, request.query.group_id)),
    });
    app.route({
      ...endpoint(API.aiModelReport, {
        tags,
        summary: "A model version's cross-validation report: per-class precision and recall, frequent confusions",
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await models.modelReport(requireAuth(request).user, request.query.model_id)),
    });
    app.route({
      ...endpoint(API.aiModelsTrain, { tags, summary: 'Train a new model version (a background job)' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await models.train(requireAuth(request).user, request.body.group_id)),
    });
    app.route({
      ...endpoint(API.aiModelsActivate, { tags, summary: 'Make a trained version the one that labels' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await models.activate(requireAuth(request).user, request.body.model_id)),
    });
    app.route({
      ...endpoint(API.aiThresholds, { tags, summary: 'Confidence thresholds of the review queue' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await models.thresholds(requireAuth(request).user, request.query.group_id)),
    });
    app.route({
      ...endpoint(API.aiThresholdsSave, { tags, summary: 'Set the default and per-class thresholds' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await models.saveThresholds(requireAuth(request).user, request.body)),
    });
    app.route({
      ...endpoint(API.aiJobs, { tags, summary: 'Recent recognition jobs of the team' }),
      config: signedIn,
      handler: async (request) => ok(await jobs.listJobs(requireAuth(request).user, request.query)),
    });
    app.route({
      ...endpoint(API.aiJob, { tags, summary: "One job's progress" }),
      config: signedIn,
      handler: async (request) => ok(await jobs.job(requireAuth(request).user, request.query.job_id)),
    });
    app.route({
      ...endpoint(API.aiJobsCancel, { tags, summary: 'Cancel a queued or running job' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await jobs.cancel(requireAuth(request).user, request.body.job_id)),
    });
  };

/** The calls outside the api prefix (spec §7): uploads, folders/add, folders/delete, folders/query, enhance. */
export const recognitionRootRoutes = ({ recognition, similarity }: RecognitionServices): FastifyPluginAsyncZod =>
  async function (app) {
    await app.register(multipart, { limits: { files: 1, fields: 4, parts: 5, fileSize: UPLOAD_MAX } });
    app.route({
      ...endpoint(API.uploads, {
        tags,
        summary: 'Measure and classify an image (multipart `file`) without storing it',
        consumes: ['multipart/form-data'],
      }),
      config: { ...signedIn, expensive: true, multipart: { file: 'The image (PNG, JPEG or WebP)' } },
      handler: async (request) => {
        const actor = requireAuth(request).user;
        if (!request.isMultipart()) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
        assertBodyArriving(request);
        const file = await request.file().catch((error: unknown) => {
          throw multipartFailure(error);
        });
        if (!file) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
        const data = await file.toBuffer().catch((error: { code?: string }) => {
          if (error.code !== 'FST_REQ_FILE_TOO_LARGE') throw multipartFailure(error);
          throw new AppError(ResultCode.BAD_PARAM, 'fileTooLarge', { max: `${UPLOAD_MAX / 1024 / 1024} MB` }, 'file', 413);
        });
        // Type from the content, dimensions from the header: a decompression bomb is refused before it is decoded.
        await checkImage(data);
        return ok(await recognition.classifyUpload(actor, data, request.query.group_id));
      },
    });
    app.route({
      ...endpoint(API.foldersAdd, { tags, summary: 'Add ROIs to a reference class' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await similarity.reference(requireAuth(request).user, request.body, true)),
    });
    app.route({
      ...endpoint(API.foldersDelete, { tags, summary: 'Take ROIs out of a reference class' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await similarity.reference(requireAuth(request).user, request.body, false)),
    });
    app.route({
      ...endpoint(API.foldersQuery, { tags, summary: 'Which reference class is this ROI like (k nearest reference ROIs)' }),
      config: signedIn,
      handler: async (request) => ok(await similarity.queryReference(requireAuth(request).user, request.body)),
    });
    app.route({
      ...endpoint(API.enhance, { tags, summary: 'A contrast-enhanced rendering of an ROI (cached image URL)' }),
      config: signedIn,
      handler: async (request) => ok(await recognition.enhance(requireAuth(request).user, request.body.roi_id)),
    });
  };
