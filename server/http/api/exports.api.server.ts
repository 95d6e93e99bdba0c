import { ExportSchema, RequestExportSchema } from '~/features/exports/exports.schema';
import { listExports, requestExport } from '~/features/exports/exports.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineOperation, type Operation } from './endpoints.server';
import { bad, denied, MessageResponse } from './responses.server';

/** Exports of the caller's own things, or an admin's of the whole site (docs/decisions/074). */
export const EXPORT_OPERATIONS: Operation[] = [
  defineOperation(
    {
      method: 'post',
      path: '/api/exports',
      tag: 'Exports',
      auth: 'required',
      standing: 'any',
      limit: RATE_LIMITS.exportRequest,
      summary: 'Ask for an export: `writer` (the caller’s posts, images, comments, likes, wishlist, follows and profile) or, for admins, `site` (everything, with a Ghost-importable ghost.json). Made in the background; the link is mailed and listed by GET /api/exports',
      body: RequestExportSchema,
      responses: {
        202: { description: 'Asked for; being made', schema: ExportSchema },
        401: denied[401],
        403: { description: 'A site export, asked by someone who is not an admin', schema: MessageResponse },
        409: { description: 'An export of this kind is already being made', schema: MessageResponse },
        ...bad,
      },
    },
    async ({ c, ctx, deps, body }) => c.json(await requestExport(ctx, deps.config, body.scope), 202),
  ),
  defineOperation(
    {
      method: 'get',
      path: '/api/exports',
      tag: 'Exports',
      auth: 'required',
      standing: 'any',
      summary: 'The caller’s latest exports, newest first; `downloadUrl` (a signed link that works for the caller, signed in) while one can be downloaded',
      responses: { 200: { description: 'Exports', schema: ExportSchema, list: true }, 401: denied[401] },
    },
    async ({ c, ctx, deps }) => c.json(await listExports(ctx, deps.config)),
  ),
];
