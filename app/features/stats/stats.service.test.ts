import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { addComment, createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { followWriter } from '~/features/follows/follows.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { writerStats } from './stats.service.server';


/** The writer's own numbers, driven through the views API, likes, comments and follows, read back (docs/decisions/066). */
describeOnDialects('writer stats on %s', (t) => {
  let writer: TestUser;
  let readers: TestUser[];
  const ctx = (user: TestUser | null): ServiceContext => t.context(user?.user ?? null);

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Stella Writer' });
    readers = [await t.createUser(), await t.createUser(), await t.createUser()];
  });

  const view = (id: string, init: { cookie?: string; agent?: string }) =>
    t.app.fetch(
      new Request(`http://afterglow.test/api/blogs/${id}/view`, {
        method: 'PATCH',
        headers: { origin: 'http://afterglow.test', 'user-agent': init.agent ?? 'Firefox', ...(init.cookie ? { cookie: init.cookie } : {}) },
      }),
      { incoming: { socket: { remoteAddress: '192.0.2.10' } } },
    );

  it('reads back views per day, likes, comments, followers it brought and mails sent, per post', async () => {
    const post = (title: string, availability: 'Public' | 'Hidden' = 'Public') =>
      createBlog(ctx(writer), { title, category: 'Personal', type: 'Mini blog', short_description: 'Short.', long_description: 'Long enough.', availability, photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp' });
    const first = (await post('First light')).insertedId;
    const hidden = (await post('Not yet', 'Hidden')).insertedId;

    // Three signed-in readers and two anonymous browsers view the first post; one reader twice.
    for (const r of readers) await view(first, { cookie: r.cookie });
    await view(first, { cookie: readers[0]!.cookie });
    await view(first, { agent: 'Chromium' });
    await view(first, { agent: 'Safari' });
    expect(await t.deps.views.flush()).toBe(5);
    // A later flush adds to the same day's row.
    await view(first, { agent: 'Edge' });
    expect(await t.deps.views.flush()).toBe(1);

    await likeBlog(ctx(readers[0]!), first);
    await likeBlog(ctx(readers[1]!), first);
    await addComment(ctx(readers[2]!), first, { commentText: 'Lovely.' });
    await followWriter(ctx(readers[0]!), writer.user.id);
    await followWriter(ctx(readers[1]!), writer.user.id);

    const stats = await writerStats(ctx(writer));
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.days.at(-1)).toBe(today);
    const shown = stats.posts.find((p) => p.id === first)!;
    expect(shown).toMatchObject({ title: 'First light', hidden: false, views: 6, likes: 2, comments: 1, newFollowers: 2, mailsSent: 0 });
    expect(shown.viewsPerDay.at(-1)).toEqual({ day: today, views: 6 });
    expect(shown.viewsPerDay.slice(0, -1).every((d) => d.views === 0)).toBe(true);
    // A hidden post is listed for her, with nothing credited to it.
    expect(stats.posts.find((p) => p.id === hidden)).toMatchObject({ hidden: true, views: 0, newFollowers: 0 });
    expect(stats.totals).toEqual({ views: 6, likes: 2, comments: 1, followers: 2, mailsSent: 0 });

    // Another writer's numbers hold none of hers; nobody signed in gets none.
    expect((await writerStats(ctx(readers[0]!))).posts).toEqual([]);
    await expect(writerStats(ctx(null))).rejects.toMatchObject({ status: 401 });
  });

  it('counts the post mails delivered for a post', async () => {
    const { insertedId } = await createBlog(ctx(writer), { title: 'Mailed', category: 'Personal', type: 'Mini blog', short_description: 'Short.', long_description: 'Body.', availability: 'Public', photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp' });
    const db = t.deps.database.db;
    const now = new Date().toISOString();
    await db.insertInto('mail_messages').values({ id: 'msg-stats', kind: 'post', key: `post:${insertedId}`, blog_id: insertedId, created_at: now }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const message = await db.selectFrom('mail_messages').select('id').where('key', '=', `post:${insertedId}`).executeTakeFirstOrThrow();
    for (const [i, status] of (['sent', 'sent', 'failed', 'queued'] as const).entries()) {
      await db
        .insertInto('mail_queue')
        .values({ id: `q-stats-${i}`, message_id: message.id, email: `r${i}@example.org`, stream: 'newsletter', ref: `s${i}`, status, next_attempt_at: now, created_at: now })
        .onConflict((oc) => oc.columns(['message_id', 'email']).doNothing())
        .execute();
    }
    expect((await writerStats(ctx(writer))).posts.find((p) => p.id === insertedId)?.mailsSent).toBe(2);
  });
});
