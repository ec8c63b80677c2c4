import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { FoldersService } from './folders.service.ts';
import type { RecycleBinService } from './recycle-bin.service.ts';
import type { RoiEditsService } from './roi-edits.service.ts';
import type { ToolbarService } from './toolbar.service.ts';

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

    app.route({
      ...endpoint(API.roiIndexSave, { tags, summary: 'A new folder, or an HI class under site images (-100)' }),
      config: signedIn,
      handler: async (request) => ok(await folders.save(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.roiIndexRename, { tags, summary: 'Rename a folder or an HI class' }),
      config: signedIn,
      handler: async (request) => ok(await folders.rename(requireAuth(request).user, request.body).then(() => null)),
    });

    app.route({
      ...endpoint(API.roiIndexDeleteFolder, { tags, summary: 'Delete a folder (its ROIs stay elsewhere) or an unused HI class' }),
      config: signedIn,
      handler: async (request) => ok(await folders.remove(requireAuth(request).user, request.body).then(() => null)),
    });

    app.route({
      ...endpoint(API.roiIndexBatchDelete, { tags, summary: 'Delete several folders, all or none' }),
      config: signedIn,
      handler: async (request) => ok({ affected: await folders.batchDelete(requireAuth(request).user, request.body.ids) }),
    });

    app.route({
      ...endpoint(API.roiIndexChangeStatus, { tags, summary: 'Attention and visibility of a folder or a class' }),
      config: signedIn,
      handler: async (request) => ok(await folders.changeStatus(requireAuth(request).user, request.body).then(() => null)),
    });

    app.route({
      ...endpoint(API.roiIndexRsync, { tags, summary: "Recount the team's folder counts" }),
      config: { access: ADMINS },
      handler: async (request) => ok({ affected: await folders.resync(requireAuth(request).user, request.query.group_id) }),
    });

    app.route({
      ...endpoint(API.roiIndexToolBar, { tags, summary: "The caller's class shortcuts" }),
      config: signedIn,
      handler: async (request) => ok(await toolbar.list(requireAuth(request).user)),
    });

    app.route({
      ...endpoint(API.roiIndexAddToolBar, { tags, summary: 'Add a class shortcut' }),
      config: signedIn,
      handler: async (request) => ok(await toolbar.add(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.roiIndexDeleteToolBar, { tags, summary: 'Remove a class shortcut' }),
      config: signedIn,
      handler: async (request) => ok(await toolbar.remove(requireAuth(request).user, request.body.id).then(() => null)),
    });

    app.route({
      ...endpoint(API.folderOperateFolder, { tags, summary: 'Copy, move or remove a whole class; move its images to HI' }),
      config: signedIn,
      handler: async (request) => ok(await folders.operateFolder(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.folderOperatorSiteFolder, { tags, summary: 'Remove an IPP gallery folder or copy it to the team library' }),
      config: signedIn,
      handler: async (request) => ok(await folders.operateSiteFolder(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.folderDeleteTemporaryFolder, { tags, summary: "Delete one or all of the caller's temporary classes" }),
      config: signedIn,
      handler: async (request) =>
        ok({ affected: await folders.deleteTemporary(requireAuth(request).user, request.body.roi_index_id) }),
    });

    app.route({
      ...endpoint(API.roiOperateRoi, { tags, summary: 'Copy or move ROIs into a folder by code, or remove them from it' }),
      config: signedIn,
      handler: async (request) => ok(await roiEdits.operateRoi(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.roiDelete, { tags, summary: 'ROIs to the recycle bin, or out of one folder only' }),
      config: signedIn,
      handler: async (request) =>
        ok(await roiEdits.deleteRois(requireAuth(request).user, request.body.roi_ids, request.query.roi_index_id)),
    });

    app.route({
      ...endpoint(API.roiSetRoiLabelIndex, { tags, summary: 'Label one ROI by hand (label index), or 0 for its AI label back' }),
      config: { ...signedIn, writes: true },
      handler: async (request) =>
        ok(await roiEdits.setLabelIndex(requireAuth(request).user, request.query.roi_id, request.query.roi_labelindex)),
    });

    app.route({
      ...endpoint(API.roiGroupReBin, { tags, summary: 'Restore (re) or purge (delete) ROIs of the recycle bin' }),
      config: { access: ADMINS },
      handler: async (request) =>
        ok({ affected: await recycleBin.reBin(requireAuth(request).user, request.body.action, request.body.roi_ids) }),
    });

    app.route({
      ...endpoint(API.roiGroupDelete, { tags, summary: "Empty the recycle bin (-8) or the caller's temporary classes (-5)" }),
      config: signedIn,
      handler: async (request) =>
        ok({
          affected: await recycleBin.groupDelete(requireAuth(request).user, request.body.category_id, request.query.group_id),
        }),
    });
  };
