import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';
import { shownToEveryone } from '~/db/shared-sql.server';
import { suspensionOf } from '~/kernel/standing.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { outgoingPost } from './federation.service.server';

/**
 * A post's `replies` collection (docs/decisions/080, FEP-b2b8 / Mastodon's shape): the comments
 * every reader sees under a post that goes out, oldest first, each by the id it has on the
 * fediverse: a local comment's Note here, a remote reply's original id there. The same rule as
 * `outgoingComment`: nothing hidden, removed, waiting or deleted, no local author who is suspended.
 */

export type ReplyRef = { kind: 'local'; commentId: string } | { kind: 'remote'; uri: string };

async function listShownReplies(db: Kysely<Database>, blogId: string, page: { offset: number; limit: number }) {
  return db
    .selectFrom('comments')
    .leftJoin('remote_replies', 'remote_replies.comment_id', 'comments.id')
    .select(['comments.id', 'comments.user_id', 'remote_replies.uri'])
    .where('comments.blog_id', '=', blogId)
    .where(shownToEveryone)
    .where((eb) => eb.or([eb('comments.user_id', 'is not', null), eb('remote_replies.uri', 'is not', null)]))
    .orderBy('comments.commented_at')
    .orderBy('comments.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** A page of a post's replies as the fediverse names them; null when the post does not go out. */
export async function repliesOf(ctx: ServiceContext, blogId: string, page: { offset: number; limit: number }): Promise<{ items: ReplyRef[]; more: boolean } | null> {
  if (!(await outgoingPost(ctx, blogId))) return null;
  const rows = await listShownReplies(ctx.db, blogId, { offset: page.offset, limit: page.limit + 1 });
  const items: ReplyRef[] = [];
  for (const row of rows.slice(0, page.limit)) {
    if (row.uri) items.push({ kind: 'remote', uri: row.uri });
    else if (row.user_id && !(await suspensionOf(ctx, row.user_id))) items.push({ kind: 'local', commentId: row.id });
  }
  return { items, more: rows.length > page.limit };
}
