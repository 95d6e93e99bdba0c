import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { titledBlogInput as blogInput } from '#test/blog-inputs';
import type { TestUser } from '#test/test-app';
import { addComment, createBlog, likeBlog, unlikeBlog } from '~/features/blogs/blogs.service.server';
import { replyToComment, setCommentLiked } from '~/features/blogs/comments.service.server';
import { followWriter } from '~/features/follows/follows.service.server';
import { hideContent, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { claimMailBatch, prepareNoticeDigests } from '~/features/mail/mail.service.server';
import { signMailToken } from '~/features/mail/mail-token.server';
import { unsubscribeByLink } from '~/features/newsletter/newsletter.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import {
  countUnreadNotifications,
  listNotifications,
  markNotificationsRead,
  notificationSettings,
  purgeOldNotifications,
  saveNotificationSettings,
} from './notifications.service.server';

describeOnDialects('notifications on %s', (t) => {
  let writer: TestUser;
  let readers: TestUser[];
  const ctx = (u: TestUser | null): ServiceContext => t.context(u?.user ?? null);
  const page = { page: 1, limit: 20 };
  const noticeMails = (email: string) =>
    t.deps.database.db
      .selectFrom('mail_queue as q')
      .innerJoin('mail_messages as m', 'm.id', 'q.message_id')
      .select(['m.kind', 'q.ref', 'q.status'])
      .where('q.stream', '=', 'notice')
      .where('q.email', '=', email.toLowerCase())
      .execute();
  const commentIdOf = async (userId: string, blogId: string) =>
    (await t.deps.database.db.selectFrom('comments').select('id').where('user_id', '=', userId).where('blog_id', '=', blogId).orderBy('commented_at', 'desc').executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Wren Writer' });
    readers = [];
    for (const name of ['Jonas', 'Ann', 'Bo', 'Cy']) readers.push(await t.createUser({ name }));
  });

  it('a comment tells the writer in the app and queues her mail at once; nobody hears of their own action', async () => {
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput('Evening light'));
    await addComment(ctx(readers[0]!), blogId, { commentText: 'Lovely.' });
    // Nothing is made while the request runs: the job runner makes it.
    expect((await listNotifications(ctx(writer), page)).items.filter((n) => n.kind === 'comment')).toHaveLength(0);
    await t.runJobs();

    const { items } = await listNotifications(ctx(writer), page);
    const comment = items.find((n) => n.kind === 'comment')!;
    expect(comment).toMatchObject({ text: 'Jonas commented on “Evening light”', read: false, actorName: 'Jonas', actorCount: 1 });
    // The post's readable address (docs/decisions/069), as every link to it.
    expect(comment.href).toMatch(new RegExp(`^/blogs/${blogId}/evening-light#comment-`));
    expect(await countUnreadNotifications(ctx(writer))).toBe(1);
    expect(await noticeMails(writer.user.email)).toEqual([{ kind: 'notice', ref: `${writer.user.id}:comment`, status: 'queued' }]);
    expect((await listNotifications(ctx(readers[0]!), page)).items).toEqual([]);

    // The mail says the same thing, read when it goes.
    const batch = await claimMailBatch(t.context(null), { worker: 'test', limit: 100, leaseMs: 60_000 });
    const mail = batch.mails.find((m) => m.email === writer.user.email.toLowerCase())!;
    expect(mail.notices).toEqual([{ text: 'Jonas commented on “Evening light”', href: comment.href }]);
    expect(mail.unsubscribe).toEqual({ kind: 'notice', userId: writer.user.id, noticeKind: 'comment' });
  });

  it('a reply tells the parent comment’s author; the writer hears of it as a comment; a comment’s likes tell its author', async () => {
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput('Harbour'));
    await addComment(ctx(readers[1]!), blogId, { commentText: 'First!' });
    const parentId = await commentIdOf(readers[1]!.user.id, blogId);
    const { insertedId: replyId } = await replyToComment(ctx(readers[2]!), parentId, { commentText: 'Second.' });
    await t.runJobs();

    const reply = (await listNotifications(ctx(readers[1]!), page)).items.find((n) => n.kind === 'reply')!;
    expect(reply.text).toBe('Bo replied to your comment on “Harbour”');
    expect(reply.href).toBe(`/blogs/${blogId}/harbour#comment-${replyId}`);
    expect((await noticeMails(readers[1]!.user.email)).map((m) => m.ref)).toEqual([`${readers[1]!.user.id}:reply`]);
    const comments = (await listNotifications(ctx(writer), page)).items.find((n) => n.kind === 'comment' && n.text.endsWith('“Harbour”'))!;
    // The latest to be handled is named; the runner may handle one event's jobs before another's.
    expect(comments.text).toMatch(/^(Ann|Bo) and 1 other commented on “Harbour”$/);

    // The writer answers her reader: the reader hears of it, the writer of nothing she did.
    await replyToComment(ctx(writer), parentId, { commentText: 'Thank you!' });
    await setCommentLiked(ctx(readers[3]!), parentId, true);
    await setCommentLiked(ctx(writer), parentId, true);
    await t.runJobs();
    const told = (await listNotifications(ctx(readers[1]!), page)).items;
    expect(told.find((n) => n.kind === 'reply')!.text).toMatch(/^(Wren Writer and 1 other|Bo and 1 other) replied to your comment on “Harbour”$/);
    expect(told.find((n) => n.kind === 'like_comment')!.text).toMatch(/^(Cy|Wren Writer) and 1 other liked your comment on “Harbour”$/);
  });

  it('likes group into one line per blog, a person counts once, and come by mail in the daily digest', async () => {
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput('Dunes'));
    for (const r of readers) await likeBlog(ctx(r), blogId);
    await unlikeBlog(ctx(readers[0]!), blogId);
    await likeBlog(ctx(readers[0]!), blogId);
    await likeBlog(ctx(writer), blogId);
    await t.runJobs();

    const likes = (await listNotifications(ctx(writer), page)).items.filter((n) => n.kind === 'like_post');
    expect(likes).toHaveLength(1);
    // The latest to be handled is named; the runner may handle one event's jobs before another's.
    expect(likes[0]).toMatchObject({ actorCount: 4, href: `/blogs/${blogId}/dunes` });
    expect(likes[0]!.text).toMatch(/^(Jonas|Ann|Bo|Cy) and 3 others liked “Dunes”$/);
    // Likes come daily unless chosen otherwise: no mail at once.
    expect((await noticeMails(writer.user.email)).filter((m) => m.ref.endsWith(':like_post'))).toEqual([]);

    // The period that ends at the next full hour holds these likes.
    const inAnHour = { ...t.context(null), now: () => new Date(Date.now() + 3_600_000) };
    const hour = (new Date().getUTCHours() + 1) % 24;
    const made = await prepareNoticeDigests(inAnHour, hour);
    expect(made.queued).toBeGreaterThan(0);
    const digests = (await noticeMails(writer.user.email)).filter((m) => m.kind === 'notice_digest');
    expect(digests).toEqual([{ kind: 'notice_digest', ref: writer.user.id, status: 'queued' }]);
    // Made once a day, however often it is asked for.
    await prepareNoticeDigests(inAnHour, hour);
    expect((await noticeMails(writer.user.email)).filter((m) => m.kind === 'notice_digest')).toHaveLength(1);
    const batch = await claimMailBatch(inAnHour, { worker: 'digest', limit: 100, leaseMs: 60_000 });
    const digest = batch.mails.find((m) => m.kind === 'notice_digest' && m.email === writer.user.email.toLowerCase())!;
    expect(digest.notices.map((n) => n.text)).toContain(likes[0]!.text);
    expect(digest.notices.some((n) => n.text.includes('commented'))).toBe(false);
  });

  it('mark read: named ones or all, only the caller’s own; a new member of a read group makes it unread again', async () => {
    const me = await t.createUser({ name: 'Mo' });
    const { insertedId: blogId } = await createBlog(ctx(me), blogInput('Tides'));
    await likeBlog(ctx(readers[0]!), blogId);
    await followWriter(ctx(readers[1]!), me.user.id);
    await t.runJobs();
    const { items } = await listNotifications(ctx(me), page);
    expect(items.map((n) => n.kind).sort()).toEqual(['follow', 'like_post']);
    expect(items.find((n) => n.kind === 'follow')).toMatchObject({ text: 'Ann followed you', href: `/authors/${readers[1]!.user.id}` });

    expect(await markNotificationsRead(ctx(writer), { ids: items.map((n) => n.id) })).toEqual({ modifiedCount: 0 });
    expect(await markNotificationsRead(ctx(me), { ids: [items[0]!.id] })).toEqual({ modifiedCount: 1 });
    expect(await countUnreadNotifications(ctx(me))).toBe(1);
    expect(await markNotificationsRead(ctx(me), {})).toEqual({ modifiedCount: 1 });
    expect(await countUnreadNotifications(ctx(me))).toBe(0);

    await likeBlog(ctx(readers[3]!), blogId);
    await t.runJobs();
    expect(await countUnreadNotifications(ctx(me))).toBe(1);
    expect((await listNotifications(ctx(me), page)).items[0]).toMatchObject({ kind: 'like_post', read: false, text: 'Cy and 1 other liked “Tides”' });
  });

  it('mail per kind: off by the preferences or by the one-click link, and the notification still shows', async () => {
    const me = await t.createUser({ name: 'Pia' });
    expect((await notificationSettings(ctx(me))).comment).toBe('instant');
    await saveNotificationSettings(ctx(me), { comment: 'off', follow: 'instant' });
    expect(await notificationSettings(ctx(me))).toMatchObject({ comment: 'off', follow: 'instant', reply: 'instant' });
    const { insertedId: blogId } = await createBlog(ctx(me), blogInput('Rain'));
    await addComment(ctx(readers[0]!), blogId, { commentText: 'Nice rain.' });
    await followWriter(ctx(readers[0]!), me.user.id);
    await t.runJobs();
    expect((await listNotifications(ctx(me), page)).items).toHaveLength(2);
    expect((await noticeMails(me.user.email)).map((m) => m.ref)).toEqual([`${me.user.id}:follow`]);

    const secret = t.deps.config.SESSION_SECRET;
    await unsubscribeByLink(t.context(null), secret, signMailToken(secret, { kind: 'notice', userId: me.user.id, noticeKind: 'follow' }));
    await t.runJobs();
    expect((await notificationSettings(ctx(me))).follow).toBe('off');
    await unsubscribeByLink(t.context(null), secret, signMailToken(secret, { kind: 'notices', userId: me.user.id }));
    await t.runJobs();
    expect(Object.values(await notificationSettings(ctx(me)))).toEqual(['off', 'off', 'off', 'off', 'off', 'off']);
  });

  it('a moderator’s decision tells the writer, naming no moderator', async () => {
    const admin = await t.createUser({ name: 'Admin' });
    await setAdminByOperator(t.context(null), admin.user.email, true);
    const me = await t.createUser({ name: 'Quill' });
    const { insertedId: blogId } = await createBlog(ctx(me), blogInput('Storm'));
    await hideContent(ctx(admin), 'blog', blogId, { reason: 'Off topic' });
    await t.runJobs();
    const moderation = (await listNotifications(ctx(me), page)).items.find((n) => n.kind === 'moderation')!;
    expect(moderation).toMatchObject({ text: 'A moderator hid your blog “Storm”: Off topic', actorName: null, href: `/blogs/${blogId}/storm` });
  });

  it('old notifications go after the kept time; recent ones stay', async () => {
    const me = await t.createUser({ name: 'Rhea' });
    await followWriter(ctx(readers[2]!), me.user.id);
    await t.runJobs();
    expect((await purgeOldNotifications(t.context(null))).deleted).toBe(0);
    const later = { ...t.context(null), now: () => new Date(Date.now() + 91 * 86_400_000) };
    expect((await purgeOldNotifications(later)).deleted).toBeGreaterThan(0);
    expect((await listNotifications(ctx(me), page)).items).toEqual([]);
  });
});
