import { Create, Note, PUBLIC_COLLECTION } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { addComment, setCommentHidden } from '~/features/blogs/comments.service.server';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { useServedAppAndPeer, writerAndModerator } from '#test/fedi-instance';
import { PUBLIC_BLOG } from '#test/public-blog';

const AP = { headers: { accept: 'application/activity+json' } };
const json = async (url: string) => (await (await fetch(url, AP)).json()) as Record<string, any>;

describe.each(TEST_DIALECTS)("a post's replies collection (%s)", (dialect) => {
  const pair = useServedAppAndPeer(dialect);

  it('lists the shown comments by their fediverse ids, a page at a time, and nothing of a post that does not go out', async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const { writer, writerUri } = await writerAndModerator(site);
    const reader = await site.t.createUser({ name: 'Local Reader' });
    const { insertedId: blogId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Replies counted' } as never);
    await site.t.runJobs();
    const article = `${site.origin}/ap/posts/${blogId}`;
    await addComment(site.t.context(reader.user), blogId, { commentText: 'First, from here' });
    const reply = new Note({ id: new URL('/notes/r1', peer.origin), attribution: peer.actorUri('reader'), replyTarget: new URL(article), content: '<p>From afar</p>', to: PUBLIC_COLLECTION });
    await peer.federation
      .createContext(new URL(peer.origin), undefined)
      .sendActivity({ identifier: 'reader' }, { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) }, new Create({ id: new URL('/notes/r1#create', peer.origin), actor: peer.actorUri('reader'), object: reply, to: PUBLIC_COLLECTION }));
    await site.t.runJobs();
    const hiddenOne = await site.t.createUser({ name: 'Hidden One' });
    await addComment(site.t.context(hiddenOne.user), blogId, { commentText: 'Hidden later' });
    const comments = await site.t.deps.database.db.selectFrom('comments').select(['id', 'comment_text']).where('blog_id', '=', blogId).execute();
    await setCommentHidden(site.t.context(writer.user), comments.find((c) => c.comment_text === 'Hidden later')!.id, true);
    for (let i = 0; i < 20; i++) await addComment(site.t.context(reader.user), blogId, { commentText: `More ${i}` });

    const repliesId = (await json(article)).replies as string;
    expect(repliesId).toBe(`${article}/replies`);
    const collection = await json(repliesId);
    expect(collection.type).toBe('OrderedCollection');
    const first = await json(typeof collection.first === 'string' ? collection.first : collection.first.id);
    const ids = (first.orderedItems as (string | { id: string })[]).map((item) => (typeof item === 'string' ? item : item.id));
    const local = comments.find((c) => c.comment_text === 'First, from here')!;
    expect(ids.slice(0, 2)).toEqual([`${site.origin}/ap/comments/${local.id}`, `${peer.origin}/notes/r1`]);
    expect(ids).toHaveLength(20);
    const second = await json(first.next as string);
    expect((second.orderedItems as unknown[]).length).toBe(2);
    expect(JSON.stringify([first, second])).not.toContain(comments.find((c) => c.comment_text === 'Hidden later')!.id);

    await site.t.deps.database.db.updateTable('blogs').set({ availability: 'Hidden' }).where('id', '=', blogId).execute();
    // Its pages answer nothing once the post no longer goes out.
    expect((await fetch(typeof collection.first === 'string' ? collection.first : collection.first.id, AP)).status).toBe(404);
  });
});
