import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { addComment, createBlog, getBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import type { CreateBlogInput } from '~/features/blogs/blogs.schema';
import { listThread } from '~/features/blogs/comments.service.server';
import { listRevisions, restoreRevision } from '~/features/blogs/revisions.service.server';
import { getModerationOverview, hideContent, reportContent, restoreContent, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { listPendingAndHeld } from '~/features/moderation/spam-hold.service.server';
import { listNotifications } from '~/features/notifications/notifications.service.server';
import { writerStats } from '~/features/stats/stats.service.server';
import { addToWishlist, listWishlistPage } from '~/features/wishlist/wishlist.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { blogPath } from './blog-path';

/**
 * Every place that links a post links its readable address (docs/decisions/069), made by
 * `blogPath`, as it reads now: after a rename the links follow the new title, including those
 * built from a report's snapshot. Each screen's loader passes these paths to its links as they are.
 */
const input = (title: string, body = 'An evening by the water.'): CreateBlogInput => ({
  title,
  category: 'Personal',
  type: 'Mini blog',
  short_description: 'Short.',
  long_description: body,
  availability: 'Public',
  photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
});

describeOnDialects('links to a post on %s', (t) => {
  let writer: TestUser;
  let reader: TestUser;
  let admin: TestUser;
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), spamHold: { days: 0, maxLinks: 2 } });
  const canonical = async (id: string) => {
    const path = blogPath(await getBlog(ctx(null), id));
    // The readable address, never the bare one.
    expect(path).toMatch(new RegExp(`^/blogs/${id}/[a-z0-9-]+$`));
    return path;
  };

  it('notifications, the wishlist, the moderation screen, the numbers, the history and a thread link the current address', async () => {
    [writer, reader, admin] = await Promise.all([t.createUser({ name: 'Wanda Writer' }), t.createUser({ name: 'Rudi Reader' }), t.createUser({ name: 'Ada Admin' })]);
    await setAdminByOperator(ctx(null), admin.user.email, true);
    const { insertedId: id } = await createBlog(ctx(writer), input('Evening light'));
    const { insertedId: other } = await createBlog(ctx(writer), input('Morning fog'));

    await addToWishlist(ctx(reader), { blogId: id, source: 'home' });
    await reportContent(ctx(reader), { targetType: 'blog', targetId: id, reason: 'Spam', details: '' });
    // Renamed after the report: its snapshot keeps the old title, the link follows the new one.
    await updateBlog(ctx(writer), id, { ...input('Evening light, again'), mail: 'post', photo_focus: 'auto' });
    const path = await canonical(id);
    expect(path).toBe(`/blogs/${id}/evening-light-again`);

    await addComment(ctx(reader), id, { commentText: 'Lovely.' });
    await t.runJobs();
    const { items } = await listNotifications(ctx(writer), { page: 1, limit: 10 });
    const comment = items.find((n) => n.kind === 'comment');
    expect(comment?.href).toMatch(new RegExp(`^${path}#comment-`));

    expect((await listWishlistPage(ctx(reader), { email: reader.user.email, page: 1, limit: 10 })).items.map((item) => item.blogPath)).toEqual([path]);

    const stats = await writerStats(ctx(writer));
    expect(Object.fromEntries(stats.posts.map((p) => [p.id, p.path]))).toEqual({ [id]: path, [other]: await canonical(other) });

    const history = await listRevisions(ctx(writer), id);
    expect(history.path).toBe(path);
    // Restoring the first version brings its title back, and with it its address.
    const restored = await restoreRevision(ctx(writer), id, history.revisions.at(-1)!.id);
    expect(restored.path).toBe(`/blogs/${id}/evening-light`);
    const current = await canonical(id);
    expect(restored.path).toBe(current);

    const commentId = (await getBlog(ctx(writer), id)).comments?.[0]?._id ?? '';
    expect((await listThread(ctx(reader), commentId)).blogPath).toBe(current);

    // The moderation screen: the queue, what was removed, the log.
    await hideContent(ctx(admin), 'comment', commentId, { reason: 'Off topic' });
    await hideContent(ctx(admin), 'blog', other, { reason: 'Checking' });
    await restoreContent(ctx(admin), 'blog', other, { reason: 'Fine after all' });
    const overview = await getModerationOverview(ctx(admin));
    expect(overview.queue.map((item) => item.blogPath)).toEqual([current]);
    expect(overview.removed.map((item) => item.blogPath)).toEqual([current]);
    const logged = overview.log!.filter((entry) => entry.targetType === 'blog' || entry.targetType === 'comment').map((entry) => entry.targetPath);
    expect(logged.sort()).toEqual([`${current}#comments`, await canonical(other), await canonical(other)].sort());
  });

  it('what waits for a moderator links its current address too', async () => {
    const fresh = await t.createUser({ name: 'Nico New' });
    const held = { ...ctx(fresh), spamHold: { days: 3, maxLinks: 2 } };
    const { insertedId } = await createBlog(held, input('Many links', 'https://a.example https://b.example www.c.example'));
    const { pending } = await listPendingAndHeld(ctx(admin));
    const waiting = pending.find((p) => p.targetId === insertedId);
    expect(waiting?.blogPath).toBe(`/blogs/${insertedId}/many-links`);
  });
});
