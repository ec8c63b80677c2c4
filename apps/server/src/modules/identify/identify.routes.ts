import {
  ActionsQuerySchema,
  ActionsSchema,
  AdjacentQuerySchema,
  AdjacentSchema,
  BatchDeleteBodySchema,
  BulkActionQuerySchema,
  BulkActionRequestBodySchema,
  BulkResultSchema,
  CATEGORY,
  CategorySchema,
  ChangeStatusBodySchema,
  ClassItemSchema,
  CreatedSchema,
  FolderIdBodySchema,
  FolderRoisQuerySchema,
  GroupDeleteBodySchema,
  IdListBodySchema,
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
  MatchingIdsQuerySchema,
  MatchingIdsSchema,
  MAX_MATCHING,
  RoisByCodeQuerySchema,
  SetLabelQuerySchema,
  SiteFolderBodySchema,
  SiteRoiBodySchema,
  SysInitQuerySchema,
  TemporaryDeleteBodySchema,
  ToolbarItemSchema,
  TreeNodeSchema,
  TreeQuerySchema,
  ViewsScopeQuerySchema,
  ResultCode,
  envelopeOf,
  type RoiPage,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import { ok, presentedJson } from '../../http/envelope.ts';
import type { BulkService } from './bulk.service.ts';
import type { FoldersService } from './folders.service.ts';
import type { IdentifyService } from './identify.service.ts';
import type { ReidentifyService } from './reidentify.service.ts';

export interface IdentifyServices {
  identify: IdentifyService;
  bulk: BulkService;
  folders: FoldersService;
  reidentify: ReidentifyService;
}

const done = z.object({ affected: z.number().int() });
const ADMINS = ['superadmin', 'administrator'] as const;
const tags = ['identify'];

/** The identify workspace (spec §2 /identify, §7 "Folders and images"); actions in docs/actions.md. */
export const identifyRoutes = ({ identify, bulk, folders, reidentify }: IdentifyServices): FastifyPluginAsyncZod =>
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

    app.post(
      '/roi/save-move',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'One bulk action on a selection, in one transaction (docs/actions.md)',
          querystring: BulkActionQuerySchema,
          body: BulkActionRequestBodySchema,
          response: { 200: envelopeOf(BulkResultSchema) },
        },
      },
      async (request) => {
        const { ipp_id: _ippId, hi: _hi, ...query } = request.query;
        const merged = { ...definedOnly(query), ...definedOnly(request.body) };
        const { type, category_id: categoryId } = merged;
        if (type === undefined) throw required('type');
        if (categoryId === undefined) throw required('category_id');
        return ok(
          await bulk.run(requireAuth(request).user, { ...merged, roi_ids: request.body.roi_ids, type, category_id: categoryId }),
        );
      },
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

    app.post(
      '/roi-index/save',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'A new folder, or an HI class under site images (-100)',
          body: NewFolderBodySchema,
          response: { 200: envelopeOf(CreatedSchema) },
        },
      },
      async (request) => ok(await folders.save(requireAuth(request).user, request.body)),
    );

    app.post(
      '/roi-index/rename',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Rename a folder or an HI class',
          body: RenameBodySchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => ok(await folders.rename(requireAuth(request).user, request.body).then(() => null)),
    );

    app.post(
      '/roi-index/delete-folder',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Delete a folder (its ROIs stay elsewhere) or an unused HI class',
          body: FolderIdBodySchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => ok(await folders.remove(requireAuth(request).user, request.body).then(() => null)),
    );

    app.post(
      '/roi-index/batch-delete',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Delete several folders, all or none',
          body: BatchDeleteBodySchema,
          response: { 200: envelopeOf(done) },
        },
      },
      async (request) => ok({ affected: await folders.batchDelete(requireAuth(request).user, request.body.ids) }),
    );

    app.post(
      '/roi-index/change-status',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Attention and visibility of a folder or a class',
          body: ChangeStatusBodySchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => ok(await folders.changeStatus(requireAuth(request).user, request.body).then(() => null)),
    );

    app.post(
      '/roi-index/rsync',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: "Recount the team's folder counts",
          querystring: ViewsScopeQuerySchema,
          response: { 200: envelopeOf(done) },
        },
      },
      async (request) => ok({ affected: await folders.resync(requireAuth(request).user, request.query.group_id) }),
    );

    app.get(
      '/roi-index/tool-bar',
      {
        config: signedIn,
        schema: { tags, summary: "The caller's class shortcuts", response: { 200: envelopeOf(z.array(ToolbarItemSchema)) } },
      },
      async (request) => ok(await folders.toolbar(requireAuth(request).user)),
    );

    app.post(
      '/roi-index/add-tool-bar',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Add a class shortcut',
          body: NewToolbarBodySchema,
          response: { 200: envelopeOf(ToolbarItemSchema) },
        },
      },
      async (request) => ok(await folders.addToolbar(requireAuth(request).user, request.body)),
    );

    app.post(
      '/roi-index/delete-tool-bar',
      {
        config: signedIn,
        schema: { tags, summary: 'Remove a class shortcut', body: IdListBodySchema, response: { 200: envelopeOf(z.null()) } },
      },
      async (request) => ok(await folders.deleteToolbar(requireAuth(request).user, request.body.id).then(() => null)),
    );

    app.post(
      '/folder/operate-folder',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Copy, move or remove a whole class; move its images to HI',
          body: OperateFolderBodySchema,
          response: { 200: envelopeOf(OperateResultSchema) },
        },
      },
      async (request) => {
        const { user } = requireAuth(request);
        await folders.refuseExampleOperation(user, request.body);
        return ok(await folders.operateFolder(user, request.body));
      },
    );

    app.post(
      '/folder/operator-site-folder',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Remove an IPP gallery folder or copy it to the team library',
          body: SiteFolderBodySchema,
          response: { 200: envelopeOf(OperateResultSchema) },
        },
      },
      async (request) => ok(await folders.operateSiteFolder(requireAuth(request).user, request.body)),
    );

    app.post(
      '/folder/delete-temporary-folder',
      {
        config: signedIn,
        schema: {
          tags,
          summary: "Delete one or all of the caller's temporary classes",
          body: TemporaryDeleteBodySchema,
          response: { 200: envelopeOf(done) },
        },
      },
      async (request) => ok({ affected: await folders.deleteTemporary(requireAuth(request).user, request.body.roi_index_id) }),
    );

    app.post(
      '/roi/operate-roi',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Copy or move ROIs into a folder by code, or remove them from it',
          body: OperateRoiBodySchema,
          response: { 200: envelopeOf(OperateResultSchema) },
        },
      },
      async (request) => ok(await folders.operateRoi(requireAuth(request).user, request.body)),
    );

    app.post(
      '/roi/operator-site-roi',
      {
        config: signedIn,
        schema: {
          tags,
          summary: "Copy ROIs into their station's IPP gallery, or remove them from it",
          body: SiteRoiBodySchema,
          response: { 200: envelopeOf(BulkResultSchema) },
        },
      },
      async (request) => {
        const { type, roi_ids } = request.body;
        const action =
          type === 'copy'
            ? { type: '31' as const, category_id: CATEGORY.SITE }
            : { type: '33' as const, category_id: CATEGORY.SITE_GALLERY };
        return ok(await bulk.run(requireAuth(request).user, { ...action, roi_ids }));
      },
    );

    app.post(
      '/roi/delete',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'ROIs to the recycle bin, or out of one folder only',
          querystring: RoiDeleteQuerySchema,
          body: RoiDeleteBodySchema,
          response: { 200: envelopeOf(BulkResultSchema) },
        },
      },
      async (request) =>
        ok(await folders.deleteRois(requireAuth(request).user, request.body.roi_ids, request.query.roi_index_id)),
    );

    app.get(
      '/roi/set-roi-label-index',
      {
        config: signedIn,
        schema: {
          tags,
          summary: 'Label one ROI by hand (label index), or 0 for its AI label back',
          querystring: SetLabelQuerySchema,
          response: { 200: envelopeOf(z.object({ class_id: z.number().int().nullable(), hi: z.number().int() })) },
        },
      },
      async (request) =>
        ok(await folders.setLabelIndex(requireAuth(request).user, request.query.roi_id, request.query.roi_labelindex)),
    );

    app.post(
      '/roi-group/re-bin',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Restore (re) or purge (delete) ROIs of the recycle bin',
          body: ReBinBodySchema,
          response: { 200: envelopeOf(done) },
        },
      },
      async (request) =>
        ok({ affected: await folders.reBin(requireAuth(request).user, request.body.action, request.body.roi_ids) }),
    );

    app.post(
      '/roi-group/delete',
      {
        config: signedIn,
        schema: {
          tags,
          summary: "Empty the recycle bin (-8) or the caller's temporary classes (-5)",
          querystring: ViewsScopeQuerySchema,
          body: GroupDeleteBodySchema,
          response: { 200: envelopeOf(done) },
        },
      },
      async (request) =>
        ok({ affected: await folders.groupDelete(requireAuth(request).user, request.body.category_id, request.query.group_id) }),
    );

    app.post(
      '/roi/re-identify',
      {
        config: { access: ADMINS },
        schema: {
          tags,
          summary: 'Ask for a re-identification of a station over a time range',
          body: ReidentifyBodySchema,
          response: { 200: envelopeOf(ReidentifyResultSchema) },
        },
      },
      async (request) => ok(await reidentify.submit(requireAuth(request).user, request.body)),
    );
  };

/** A page of ROIs in the envelope, its total in `count`. */
const listed = ({ page, count }: { page: RoiPage; count: number }) => ok(page, { count });

const required = (field: string) =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field, reasonKey: 'reason.required' }, field);

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
