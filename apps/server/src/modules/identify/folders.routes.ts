import {
  BatchDeleteBodySchema,
  BulkResultSchema,
  ChangeStatusBodySchema,
  CreatedSchema,
  FolderIdBodySchema,
  GroupDeleteBodySchema,
  IdListBodySchema,
  NewFolderBodySchema,
  NewToolbarBodySchema,
  OperateFolderBodySchema,
  OperateResultSchema,
  OperateRoiBodySchema,
  ReBinBodySchema,
  RenameBodySchema,
  RoiDeleteBodySchema,
  RoiDeleteQuerySchema,
  SetLabelQuerySchema,
  SiteFolderBodySchema,
  TemporaryDeleteBodySchema,
  ToolbarItemSchema,
  ViewsScopeQuerySchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { FoldersService } from './folders.service.ts';
import type { RecycleBinService } from './recycle-bin.service.ts';
import type { RoiEditsService } from './roi-edits.service.ts';
import type { ToolbarService } from './toolbar.service.ts';

const done = z.object({ affected: z.number().int() });
const ADMINS = ['superadmin', 'administrator'] as const;
const tags = ['identify'];

/** Folders, HI classes, the toolbar, the recycle bin and single-ROI edits of the identify workspace. */
export const foldersRoutes = ({
  folders,
  toolbar,
  recycleBin,
  roiEdits,
}: {
  folders: FoldersService;
  toolbar: ToolbarService;
  recycleBin: RecycleBinService;
  roiEdits: RoiEditsService;
}): FastifyPluginAsyncZod =>
  async function (app) {
    const signedIn = { access: 'signed-in' as const };

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
      async (request) => ok(await toolbar.list(requireAuth(request).user)),
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
      async (request) => ok(await toolbar.add(requireAuth(request).user, request.body)),
    );

    app.post(
      '/roi-index/delete-tool-bar',
      {
        config: signedIn,
        schema: { tags, summary: 'Remove a class shortcut', body: IdListBodySchema, response: { 200: envelopeOf(z.null()) } },
      },
      async (request) => ok(await toolbar.remove(requireAuth(request).user, request.body.id).then(() => null)),
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
      async (request) => ok(await roiEdits.operateRoi(requireAuth(request).user, request.body)),
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
        ok(await roiEdits.deleteRois(requireAuth(request).user, request.body.roi_ids, request.query.roi_index_id)),
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
        ok(await roiEdits.setLabelIndex(requireAuth(request).user, request.query.roi_id, request.query.roi_labelindex)),
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
        ok({ affected: await recycleBin.reBin(requireAuth(request).user, request.body.action, request.body.roi_ids) }),
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
        ok({
          affected: await recycleBin.groupDelete(requireAuth(request).user, request.body.category_id, request.query.group_id),
        }),
    );
  };
