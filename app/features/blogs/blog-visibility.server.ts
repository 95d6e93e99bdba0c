import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import type { BlogRow } from './blogs.presenter';
import * as repo from './blogs.repo.server';

export const blogNotFound = () => new AppError('not_found', MESSAGES.blogNotFound);

/**
 * A Hidden blog is a private draft, and a blog a moderator removed or one waiting for a
 * moderator is shown to its owner only: to anyone else none exists (docs/decisions/028, 029).
 * The blogs and the comments use cases both pass through it.
 */
export async function findVisibleBlog(ctx: ServiceContext, id: string): Promise<BlogRow> {
  const row = await repo.findBlog(ctx.db, id);
  if (!row || ((row.availability === 'Hidden' || row.removed_at || row.pending_since) && row.owner_id !== ctx.user?.id)) throw blogNotFound();
  return row;
}
