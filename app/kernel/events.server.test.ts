import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { addComment, createBlog, deleteBlog, likeBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import { followWriter, unfollowWriter } from '~/features/follows/follows.service.server';
import { hideContent, setAdminByOperator, suspendUser } from '~/features/moderation/moderation.service.server';
import { confirmSubscription, subscribe } from '~/features/newsletter/newsletter.service.server';
import { signMailToken } from '~/features/mail/mail-token.server';
import type { EventName } from './events.server';

const blogInput = (title: string, availability: 'Public' | 'Hidden' = 'Public') =>
  ({ title, category: 'Personal', type: 'Mini blog', short_description: `A ${title}`, long_description: 'Long enough.', details: '', availability, photo: '/uploads/sunset.webp' }) as const;

describeOnDialects('domain events on %s', (t) => {
  /** The events emitted since the last call, as [name, data], by name. Known by id, not by position: two changes in one millisecond share a time. */
  const seen = new Set<string>();
  const emitted = async () => {
    const rows = await t.deps.database.db.selectFrom('jobs').select(['payload', 'id']).where('kind', '=', 'event').execute();
    const fresh = rows.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    const events = fresh.map((r) => JSON.parse(r.payload) as { name: EventName; data: Record<string, unknown> });
    return events.map((e) => [e.name, e.data]).sort((x, y) => String(x[0]).localeCompare(String(y[0])));
  };

  it('each feature says what happened, once, with the change', async () => {
    const writer = await t.createUser({ name: 'Writer' });
    const reader = await t.createUser({ name: 'Reader' });
    const admin = await t.createUser({ name: 'Admin' });
    await setAdminByOperator(t.context(null), admin.user.email, true);
    await emitted();
    const w = t.context(writer.user);
    const r = t.context(reader.user);
    const ids = (blogId: string) => ({ blogId, ownerId: writer.user.id });

    const { insertedId: draft } = await createBlog(w, blogInput('A draft', 'Hidden'));
    expect(await emitted()).toEqual([]);
    await updateBlog(w, draft, { availability: 'Public' });
    expect(await emitted()).toEqual([['blog.published', ids(draft)], ['blog.updated', ids(draft)]]);
    await updateBlog(w, draft, { availability: 'Hidden' });
    expect(await emitted()).toEqual([['blog.updated', ids(draft)], ['blog.withdrawn', { ...ids(draft), how: 'hidden' }]]);
    await deleteBlog(w, draft);
    expect(await emitted()).toEqual([['blog.withdrawn', { ...ids(draft), how: 'deleted' }]]);

    const { insertedId: blog } = await createBlog(w, blogInput('Out now'));
    expect(await emitted()).toEqual([['blog.published', ids(blog)]]);
    await likeBlog(r, blog);
    await likeBlog(r, blog);
    expect(await emitted()).toEqual([['blog.liked', { ...ids(blog), userId: reader.user.id }]]);
    await addComment(r, blog, { commentText: 'Lovely.' });
    const [[name, data]] = (await emitted()) as [[string, Record<string, unknown>]];
    expect(name).toBe('comment.posted');
    expect(data).toMatchObject({ blogId: blog, blogOwnerId: writer.user.id, authorId: reader.user.id, parentId: null });

    await followWriter(r, writer.user.id);
    await followWriter(r, writer.user.id);
    const follow = { followerId: reader.user.id, writerId: writer.user.id };
    expect(await emitted()).toEqual([['follow.started', follow]]);
    await unfollowWriter(r, writer.user.id);
    await unfollowWriter(r, writer.user.id);
    expect(await emitted()).toEqual([['follow.ended', follow]]);

    await subscribe(t.context(null), { email: 'events@example.com' });
    const subscriber = await t.deps.database.db.selectFrom('subscribers').select('id').where('email', '=', 'events@example.com').executeTakeFirstOrThrow();
    expect(await emitted()).toEqual([['subscriber.pending', { subscriberId: subscriber.id, email: 'events@example.com' }]]);
    const token = signMailToken(t.deps.config.SESSION_SECRET, { kind: 'confirm', subscriberId: subscriber.id });
    await confirmSubscription(t.context(null), t.deps.config.SESSION_SECRET, token);
    await confirmSubscription(t.context(null), t.deps.config.SESSION_SECRET, token);
    expect(await emitted()).toEqual([['subscriber.confirmed', { subscriberId: subscriber.id }]]);

    const a = t.context(admin.user);
    await hideContent(a, 'blog', blog, { reason: 'Spam' });
    expect(await emitted()).toEqual([
      ['blog.withdrawn', { ...ids(blog), how: 'removed' }],
      ['moderation.decided', { actorId: admin.user.id, action: 'hide', targetType: 'blog', targetId: blog, ownerId: writer.user.id, reason: 'Spam' }],
    ]);
    await suspendUser(a, reader.user.id, { days: null, reason: 'Abuse' });
    expect(await emitted()).toEqual([
      ['account.suspended', { userId: reader.user.id, until: null, reason: 'Abuse' }],
      ['moderation.decided', { actorId: admin.user.id, action: 'suspend', targetType: 'user', targetId: reader.user.id, ownerId: reader.user.id, reason: 'Abuse' }],
    ]);
  });

  it('a change that fails emits nothing', async () => {
    const writer = await t.createUser({ name: 'Writer Two' });
    await emitted();
    await expect(createBlog(t.context(writer.user), { ...blogInput('Broken'), category: 'Nope' as 'Personal' })).rejects.toThrow();
    expect(await emitted()).toEqual([]);
  });
});
