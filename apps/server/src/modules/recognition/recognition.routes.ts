import multipart from '@fastify/multipart';
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
  ReferenceResultSchema,
  ResultCode,
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
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import { assertBodyArriving, multipartFailure } from '../../http/upload.ts';
import { ok } from '../../http/envelope.ts';
import { checkImage } from '../rois/images.ts';
import type { AbundanceService } from './abundance.service.ts';
import type { JobsService } from './jobs.service.ts';
import type { ModelsService } from './models.service.ts';
import type { RecognitionService } from './recognition.service.ts';
import type { SimilarityService } from './similarity.service.ts';

const ADMINS = ['superadmin', 'administrator'] as const;
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
    app.get(
      '/ai/corrected-counts',
      {
        config: { ...signedIn, expensive: true },
        schema: {
          tags,
          summary: "A station's counts per class, the model-labelled part corrected for the models' known confusions",
          querystring: CorrectedCountsQuerySchema,
          response: { 200: envelopeOf(CorrectedCountsSchema) },
        },
      },
      async (request) => ok(await abundance.correctedCounts(requireAuth(request).user, request.query)),
    );
    app.post(
      '/python/feature',
      {
        config: signedIn,
        schema: {
          tags,
          summary: "Compute (again) and store ROIs' feature vectors and morphology",
          body: FeatureBodySchema,
          response: { 200: envelopeOf(FeatureResultSchema) },
        },
      },
      async (request) => ok(await recognition.computeFeatures(requireAuth(request).user, request.body)),
    );
    app.get(
      '/ai/roi',
      {
        config: signedIn,
        schema: {
          tags,
          summary: "An ROI's AI label and morphology",
          querystring: RoiInsightQuerySchema,
          response: { 200: envelopeOf(RoiInsightSchema) },
        },
      },
      async (request) => ok(await recognition.insight(requireAuth(request).user, request.query.roi_id)),
    );
    app.get(
      '/ai/similar',
      {
        config: { ...signedIn, expensive: true },
        schema: {
          tags,
          summary: 'More like this: nearest ROIs of the team',
          querystring: SimilarQuerySchema,
          response: { 200: envelopeOf(SimilarSchema) },
        },
      },
      async (request) => ok(await similarity.similar(requireAuth(request).user, request.query.roi_id, request.query.limit)),
    );
    app.get(
      '/ai/models',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: "The team's model versions",
          querystring: TeamQuerySchema,
          response: { 200: envelopeOf(ModelListSchema) },
        },
      },
      async (request) => ok(await models.listModels(requireAuth(request).user, request.query.group_id)),
    );
    app.get(
      '/ai/model/report',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: "A model version's cross-validation report: per-class precision and recall, frequent confusions",
          querystring: ModelReportQuerySchema,
          response: { 200: envelopeOf(ModelReportSchema) },
        },
      },
      async (request) => ok(await models.modelReport(requireAuth(request).user, request.query.model_id)),
    );
    app.post(
      '/ai/models/train',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Train a new model version (a background job)',
          body: TrainBodySchema,
          response: { 200: envelopeOf(TrainResultSchema) },
        },
      },
      async (request) => ok(await models.train(requireAuth(request).user, request.body.group_id)),
    );
    app.post(
      '/ai/models/activate',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Make a trained version the one that labels',
          body: ActivateBodySchema,
          response: { 200: envelopeOf(ModelListSchema) },
        },
      },
      async (request) => ok(await models.activate(requireAuth(request).user, request.body.model_id)),
    );
    app.get(
      '/ai/thresholds',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Confidence thresholds of the review queue',
          querystring: TeamQuerySchema,
          response: { 200: envelopeOf(ThresholdsSchema) },
        },
      },
      async (request) => ok(await models.thresholds(requireAuth(request).user, request.query.group_id)),
    );
    app.post(
      '/ai/thresholds',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Set the default and per-class thresholds',
          body: ThresholdsBodySchema,
          response: { 200: envelopeOf(ThresholdsSchema) },
        },
      },
      async (request) => ok(await models.saveThresholds(requireAuth(request).user, request.body)),
    );
    app.get(
      '/ai/jobs',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Recent recognition jobs of the team',
          querystring: JobsQuerySchema,
          response: { 200: envelopeOf(JobListSchema) },
        },
      },
      async (request) => ok(await jobs.listJobs(requireAuth(request).user, request.query)),
    );
    app.get(
      '/ai/job',
      {
        config: signedIn,
        schema: { tags, summary: "One job's progress", querystring: JobQuerySchema, response: { 200: envelopeOf(JobSchema) } },
      },
      async (request) => ok(await jobs.job(requireAuth(request).user, request.query.job_id)),
    );
    app.post(
      '/ai/jobs/cancel',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Cancel a queued or running job',
          body: JobIdBodySchema,
          response: { 200: envelopeOf(JobSchema) },
        },
      },
      async (request) => ok(await jobs.cancel(requireAuth(request).user, request.body.job_id)),
    );
  };

/** The calls outside the api prefix (spec §7): uploads, folders/add, folders/delete, folders/query, enhance. */
export const recognitionRootRoutes = ({ recognition, similarity }: RecognitionServices): FastifyPluginAsyncZod =>
  async function (app) {
    await app.register(multipart, { limits: { files: 1, fields: 4, parts: 5, fileSize: UPLOAD_MAX } });
    app.post(
      '/uploads',
      {
        config: { ...signedIn, expensive: true, multipart: { file: 'The image (PNG, JPEG or WebP)' } },
        schema: {
          tags,
          summary: 'Measure and classify an image (multipart `file`) without storing it',
          consumes: ['multipart/form-data'],
          querystring: TeamQuerySchema,
          response: { 200: envelopeOf(UploadAnswerSchema) },
        },
      },
      async (request) => {
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
    );
    app.post(
      '/folders/add',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Add ROIs to a reference class',
          body: ReferenceBodySchema,
          response: { 200: envelopeOf(ReferenceResultSchema) },
        },
      },
      async (request) => ok(await similarity.reference(requireAuth(request).user, request.body, true)),
    );
    app.post(
      '/folders/delete',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Take ROIs out of a reference class',
          body: ReferenceBodySchema,
          response: { 200: envelopeOf(ReferenceResultSchema) },
        },
      },
      async (request) => ok(await similarity.reference(requireAuth(request).user, request.body, false)),
    );
    app.post(
      '/folders/query',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Which reference class is this ROI like (k nearest reference ROIs)',
          body: ReferenceQueryBodySchema,
          response: { 200: envelopeOf(ReferenceAnswerSchema) },
        },
      },
      async (request) => ok(await similarity.queryReference(requireAuth(request).user, request.body)),
    );
    app.post(
      '/enhance',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'A contrast-enhanced rendering of an ROI (cached image URL)',
          body: EnhanceBodySchema,
          response: { 200: envelopeOf(EnhanceResultSchema) },
        },
      },
      async (request) => ok(await recognition.enhance(requireAuth(request).user, request.body.roi_id)),
    );
  };
