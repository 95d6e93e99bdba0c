import { Readable } from 'node:stream';
import { openExport } from '~/features/exports/exports.service.server';
import { AppError } from '~/lib/core/errors';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import type { Route } from './+types/export-download';

/**
 * The mailed link of an export (docs/decisions/074): its owner, signed in, gets the zip, streamed
 * from where it is kept (disk or bucket, whichever instance made it: decision 092); signed out,
 * she signs in first and comes back; anyone else, a wrong or an expired link gets the same 404.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  try {
    const download = await openExport(context.service, context.deps.config, params.id, params.token);
    return new Response(Readable.toWeb(download.body) as ReadableStream, {
      headers: {
        'content-type': 'application/zip',
        'content-length': String(download.size),
        'content-disposition': `attachment; filename="${download.filename}"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return new Response(error.message, { status: error.status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }
}
