import { API, ACTION, CATEGORY, ResultCode } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import type { BulkService } from './bulk.service.ts';
import type { ReidentifyService } from './reidentify.service.ts';

const tags = ['identify'];

/** The identify workspace's actions on selected ROIs (docs/actions.md) and re-identification requests. */
export const bulkRoutes = ({ bulk, reidentify }: { bulk: BulkService; reidentify: ReidentifyService }): FastifyPluginAsyncZod =>
  async function (app) {
    const signedIn = { access: 'signed-in' as const };

    app.route({
      ...endpoint(API.roiSaveMove, { tags, summary: 'One bulk action on a selection, in one transaction (docs/actions.md)' }),
      config: signedIn,
      handler: async (request) => {
        const { ipp_id: _ippId, hi: _hi, ...query } = request.query;
        const merged = { ...definedOnly(query), ...definedOnly(request.body) };
        const { type, category_id: categoryId } = merged;
        if (type === undefined) throw required('type');
        if (categoryId === undefined) throw required('category_id');
        return ok(
          await bulk.run(requireAuth(request).user, { ...merged, roi_ids: request.body.roi_ids, type, category_id: categoryId }),
        );
      },
    });

    app.route({
      ...endpoint(API.roiOperatorSiteRoi, {
        tags,
        summary: "Copy ROIs into their station's IPP gallery, or remove them from it",
      }),
      config: signedIn,
      handler: async (request) => {
        const { type, roi_ids } = request.body;
        const action =
          type === 'copy'
            ? { type: ACTION.COPY_TO_SITE_GALLERY, category_id: CATEGORY.SITE }
            : { type: ACTION.REMOVE_FROM_SITE_GALLERY, category_id: CATEGORY.SITE_GALLERY };
        return ok(await bulk.run(requireAuth(request).user, { ...action, roi_ids }));
      },
    });

    app.route({
      ...endpoint(API.roiReIdentify, { tags, summary: 'Ask for a re-identification of a station over a time range' }),
      config: { access: ADMINS },
      handler: async (request) => ok(await reidentify.submit(requireAuth(request).user, request.body)),
    });
  };

const required = (field: string) =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field, reasonKey: 'reason.required' }, field);

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
