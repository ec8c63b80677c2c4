import { API, CATEGORY, MAX_MATCHING, type RoiPage } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { requireAuth } from '../../http/access.ts';
import { ok, presentedJson } from '../../http/envelope.ts';
import type { IdentifyService } from './identify.service.ts';

const tags = ['identify'];

/** The identify workspace's reads (spec §2 /identify, §7 "Folders and images"): categories, tree, lists, neighbours, allowed actions. */
export const identifyRoutes = ({ identify }: { identify: IdentifyService }): FastifyPluginAsyncZod =>
  async function (app) {
    const signedIn = { access: 'signed-in' as const };

    app.route({
      ...endpoint(API.roiCategorys, { tags, summary: 'The galleries and views the caller may open, with counts' }),
      config: signedIn,
      handler: async (request) => ok(await identify.categories(requireAuth(request).user, request.query.group_id)),
    });

    app.route({
      ...endpoint(API.roiIndexIndex, { tags, summary: 'The gallery/class tree of a category, with counts' }),
      config: signedIn,
      handler: async (request) => ok(await identify.tree(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.roiIndex, { tags, summary: 'One page of ROIs (keyset underneath); count is the total, capped' }),
      config: signedIn,
      serializerCompiler: presentedJson,
      handler: async (request) => listed(await identify.list(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.roiMatchingIds, {
        tags,
        summary: 'The ids of every ROI a list query matches, in its order, at most 10,000 ("select all matching")',
      }),
      config: { ...signedIn, expensive: true },
      handler: async (request) =>
        ok(await identify.matchingIds(requireAuth(request).user, { ...request.query, limit: MAX_MATCHING, page: 1 })),
    });

    app.route({
      ...endpoint(API.roiAll, { tags, summary: 'All images by device (category -1000)' }),
      config: signedIn,
      serializerCompiler: presentedJson,
      handler: async (request) =>
        listed(await identify.list(requireAuth(request).user, { ...request.query, category_id: CATEGORY.ALL })),
    });

    app.route({
      ...endpoint(API.folderGetFolderByRoiIndex, { tags, summary: 'The ROIs of one folder (1000 a page, oldest first)' }),
      config: signedIn,
      serializerCompiler: presentedJson,
      handler: async (request) => listed(await identify.folderRois(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.roiGetRoiByCode, { tags, summary: 'The ROIs of the folder with that code (200 a page, newest first)' }),
      config: signedIn,
      serializerCompiler: presentedJson,
      handler: async (request) => listed(await identify.folderRois(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.roiGetAdjacentRoi, { tags, summary: 'The previous and next ROI of one, in the same list and order' }),
      config: signedIn,
      handler: async (request) => ok(await identify.adjacent(requireAuth(request).user, request.query)),
    });

    app.route({
      ...endpoint(API.roiActions, { tags, summary: 'The bulk action codes the caller may use in a category' }),
      config: signedIn,
      handler: async (request) =>
        ok(await identify.actions(requireAuth(request).user, request.query.category_id, request.query.reviewed_type)),
    });

    app.route({
      ...endpoint(API.toolSysInit, { tags, summary: 'The class list, sorted by title' }),
      config: signedIn,
      handler: async (request) => ok(await identify.classes(requireAuth(request).user, request.query)),
    });
  };

const listed = ({ page, count }: { page: RoiPage; count: number }) => ok(page, { count });
