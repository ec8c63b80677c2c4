import {
  ActionsQuerySchema,
  ActionsSchema,
  AdjacentQuerySchema,
  AdjacentSchema,
  CATEGORY,
  CategorySchema,
  ClassItemSchema,
  FolderRoisQuerySchema,
  RoiListQuerySchema,
  RoiPageSchema,
  MatchingIdsQuerySchema,
  MatchingIdsSchema,
  MAX_MATCHING,
  RoisByCodeQuerySchema,
  SysInitQuerySchema,
  TreeNodeSchema,
  TreeQuerySchema,
  ViewsScopeQuerySchema,
  envelopeOf,
  type RoiPage,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok, presentedJson } from '../../http/envelope.ts';
import type { IdentifyService } from './identify.service.ts';

const tags = ['identify'];

/** The identify workspace's reads (spec §2 /identify, §7 "Folders and images"): categories, tree, lists, neighbours, allowed actions. */
export const identifyRoutes = ({ identify }: { identify: IdentifyService }): FastifyPluginAsyncZod =>
  async function (app) {
    const signedIn = { access: 'signed-in' as const };

    app.get(
      '/roi/categorys',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'The galleries and views the caller may open, with counts',
          querystring: ViewsScopeQuerySchema,
          response: { 200: envelopeOf(z.array(CategorySchema)) },
        },
      },
      async (request) => ok(await identify.categories(requireAuth(request).user, request.query.group_id)),
    );

    app.get(
      '/roi-index/index',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'The gallery/class tree of a category, with counts',
          querystring: TreeQuerySchema,
          response: { 200: envelopeOf(z.array(TreeNodeSchema)) },
        },
      },
      async (request) => ok(await identify.tree(requireAuth(request).user, request.query)),
    );

    app.get(
      '/roi/index',
      {
        config: signedIn,
        serializerCompiler: presentedJson,
        schema: {
          tags,
          summary: 'One page of ROIs (keyset underneath); count is the total, capped',
          querystring: RoiListQuerySchema,
          response: { 200: envelopeOf(RoiPageSchema) },
        },
      },
      async (request) => listed(await identify.list(requireAuth(request).user, request.query)),
    );

    app.get(
      '/roi/matching-ids',
      {
        config: { ...signedIn, expensive: true },
        schema: {
          tags,
          summary: 'The ids of every ROI a list query matches, in its order, at most 10,000 ("select all matching")',
          querystring: MatchingIdsQuerySchema,
          response: { 200: envelopeOf(MatchingIdsSchema) },
        },
      },
      async (request) =>
        ok(await identify.matchingIds(requireAuth(request).user, { ...request.query, limit: MAX_MATCHING, page: 1 })),
    );

    app.get(
      '/roi/all',
      {
        config: signedIn,
        serializerCompiler: presentedJson,
        schema: {
          tags,
          summary: 'All images by device (category -1000)',
          querystring: RoiListQuerySchema.omit({ category_id: true }),
          response: { 200: envelopeOf(RoiPageSchema) },
        },
      },
      async (request) => listed(await identify.list(requireAuth(request).user, { ...request.query, category_id: CATEGORY.ALL })),
    );

    app.get(
      '/folder/get-folder-by-roi-index',
      {
        config: signedIn,
        serializerCompiler: presentedJson,
        schema: {
          tags,
          summary: 'The ROIs of one folder (1000 a page, oldest first)',
          querystring: FolderRoisQuerySchema,
          response: { 200: envelopeOf(RoiPageSchema) },
        },
      },
      async (request) => listed(await identify.folderRois(requireAuth(request).user, request.query)),
    );

    app.get(
      '/roi/get-roi-by-code',
      {
        config: signedIn,
        serializerCompiler: presentedJson,
        schema: {
          tags,
          summary: 'The ROIs of the folder with that code (200 a page, newest first)',
          querystring: RoisByCodeQuerySchema,
          response: { 200: envelopeOf(RoiPageSchema) },
        },
      },
      async (request) => listed(await identify.folderRois(requireAuth(request).user, request.query)),
    );

    app.get(
      '/roi/get-adjacent-roi',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'The previous and next ROI of one, in the same list and order',
          querystring: AdjacentQuerySchema,
          response: { 200: envelopeOf(AdjacentSchema) },
        },
      },
      async (request) => ok(await identify.adjacent(requireAuth(request).user, request.query)),
    );

    app.get(
      '/roi/actions',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'The bulk action codes the caller may use in a category',
          querystring: ActionsQuerySchema,
          response: { 200: envelopeOf(ActionsSchema) },
        },
      },
      async (request) => ok(identify.actions(requireAuth(request).user, request.query.category_id, request.query.reviewed_type)),
    );

    app.get(
      '/tool/sys-init',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'The class list, sorted by title',
          querystring: SysInitQuerySchema,
          response: { 200: envelopeOf(z.array(ClassItemSchema)) },
        },
      },
      async (request) => ok(await identify.classes(requireAuth(request).user, request.query)),
    );
  };

const listed = ({ page, count }: { page: RoiPage; count: number }) => ok(page, { count });
