import { Create, Delete, Follow, Note } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { addComment, setCommentHidden } from '~/features/blogs/comments.service.server';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { hideContent, restoreContent } from '~/features/moderation/moderation.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { useServedAppAndPeer, writerAndModerator } from '#test/fedi-instance';
import { PUBLIC_BLOG } from '#test/public-blog';

describe.each(TEST_DIALECTS)('a comment shown again goes out again (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);

  it("after its writer's hide, and after a moderator's removal: a Delete, then a Create the peer takes", async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const { writer, moderator, writerUri } = await writerAndModerator(site);
    const reader = await site.t.createUser({ name: 'Local Reader' });
    const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
    await ctx.sendActivity({ identifier: 'reader' }, { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) }, new Follow({ id: new URL('#follow', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
    const { insertedId: blogId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Comments come back' } as never);
    await addComment(site.t.context(reader.user), blogId, { commentText: 'Here again' });
    await site.t.runJobs();
    const [comment] = await site.t.deps.database.db.selectFrom('comments').select('id').where('blog_id', '=', blogId).execute();
    const noteId = `${site.origin}/ap/comments/${comment!.id}`;
    const creates = async () => (await Promise.all(peer.received.filter((a) => a instanceof Create).map((c) => c.getObject()))).filter((o) => o instanceof Note && o.id?.href === noteId).length;
    const deletes = () => peer.received.filter((a) => a instanceof Delete && a.objectId?.href === noteId).length;
    expect([await creates(), deletes()]).toEqual([1, 0]);

    await setCommentHidden(site.t.context(writer.user), comment!.id, true);
    await site.t.runJobs();
    await setCommentHidden(site.t.context(writer.user), comment!.id, false);
    await site.t.runJobs();
    expect([await creates(), deletes()]).toEqual([2, 1]);

    await hideContent(site.t.context(moderator.user), 'comment', comment!.id, { reason: 'Checking' });
    await site.t.runJobs();
    await restoreContent(site.t.context(moderator.user), 'comment', comment!.id, { reason: 'Fine after all' });
    await site.t.runJobs();
    expect([await creates(), deletes()]).toEqual([3, 2]);
  });
});
