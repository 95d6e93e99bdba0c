import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { mailOrigin } from '~/features/mail/mail-templates.server';
import type { TestApp } from '../tests/support/test-app';
import { addComment, createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { replyToComment, setCommentLiked } from '~/features/blogs/comments.service.server';
import { followWriter } from '~/features/follows/follows.service.server';
import { insertMessage, insertQueueRow } from '~/features/mail/mail.repo.server';
import { addToWishlist } from '~/features/wishlist/wishlist.service.server';
import { randomUUID } from 'node:crypto';

const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.includes('session_token='))?.split(';')[0];

/** The mails the SMTP outbox holds for `to`, decoded from quoted-printable. */
function mailsTo(t: TestApp, to: string): string[] {
  const outbox = path.join(t.scratch.dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox);
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((eml) => eml.includes(`To: ${to}`));
}

const signIn = (t: TestApp, email: string, password: string) => t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password } });

describeOnDialects('changing the password and the email on %s', (t) => {
  it('changes the password only with the current one, ends the other sessions and mails the owner', async () => {
    const created = await t.createUser();
    const otherDevice = sessionCookie(await signIn(t, created.user.email, created.password))!;
    const wrong = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: 'Wrong1234', newPassword: 'Evening456', revokeOtherSessions: true } });
    expect(wrong.status).toBe(400);
    expect((await signIn(t, created.user.email, created.password)).status).toBe(200);
    const weak = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: created.password, newPassword: 'weakpass', revokeOtherSessions: true } });
    expect(weak.status).toBe(400);

    const changed = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: created.password, newPassword: 'Evening456', revokeOtherSessions: true } });
    expect(changed.status).toBe(200);
    const kept = sessionCookie(changed)!;
    expect((await t.request(`/api/update/${created.user.email}`, { headers: { cookie: otherDevice } })).status).toBe(401);
    expect((await t.request(`/api/update/${created.user.email}`, { headers: { cookie: kept } })).status).toBe(200);
    expect((await signIn(t, created.user.email, created.password)).status).toBe(401);
    expect((await signIn(t, created.user.email, 'Evening456')).status).toBe(200);
    await expect.poll(() => mailsTo(t, created.user.email).filter((eml) => eml.includes('password was changed')).length, { timeout: 30_000 }).toBe(1);
    expect(mailsTo(t, created.user.email)[0]).toContain(`${mailOrigin(t.deps.config)}/forgot-password`);
  });

  it('changes the email once the new address opens its link, and tells the old address first', async () => {
    const created = await t.createUser();
    const newEmail = `moved-${Date.now()}@example.com`;
    const ask = (json: unknown) => t.request('/api/auth/change-email', { method: 'POST', headers: { cookie: created.cookie }, json });
    expect((await ask({ newEmail })).status).toBe(400);
    expect((await ask({ newEmail, password: 'Wrong1234' })).status).toBe(400);
    expect((await ask({ newEmail, password: created.password, callbackURL: '/account?email=changed' })).status).toBe(200);

    await expect.poll(() => mailsTo(t, newEmail).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => mailsTo(t, created.user.email).length, { timeout: 30_000 }).toBe(1);
    expect(mailsTo(t, created.user.email)[0]).toContain(`change its email to ${newEmail}`);
    const origin = mailOrigin(t.deps.config);
    const link = mailsTo(t, newEmail)[0]!.match(/http:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
    expect(new URL(link).origin).toBe(origin);
    // Nothing changes before the link is opened.
    expect((await signIn(t, created.user.email, created.password)).status).toBe(200);

    const follow = await t.request(link.replace(origin, ''), { redirect: 'manual' });
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('/account?email=changed');
    expect((await signIn(t, created.user.email, created.password)).status).toBe(401);
    expect((await signIn(t, newEmail, created.password)).status).toBe(200);
    const profile = await t.deps.database.db.selectFrom('profiles').select('email').where('user_id', '=', created.user.id).executeTakeFirstOrThrow();
    expect(profile.email).toBe(newEmail);
  });

  it('lets a new password stop an email change asked before it', async () => {
    const created = await t.createUser();
    const stranger = `stranger-${Date.now()}@example.com`;
    const asked = await t.request('/api/auth/change-email', { method: 'POST', headers: { cookie: created.cookie }, json: { newEmail: stranger, password: created.password } });
    expect(asked.status).toBe(200);
    await expect.poll(() => mailsTo(t, stranger).length, { timeout: 30_000 }).toBe(1);
    // A whole second later: the link's time is in seconds.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const changed = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: created.password, newPassword: 'Evening456', revokeOtherSessions: true } });
    expect(changed.status).toBe(200);
    const origin = mailOrigin(t.deps.config);
    const link = mailsTo(t, stranger)[0]!.match(/http:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
    const follow = await t.request(link.replace(origin, ''), { redirect: 'manual' });
    expect(follow.headers.get('location')).toBe('/account?email=stale');
    expect((await signIn(t, created.user.email, 'Evening456')).status).toBe(200);
    expect((await signIn(t, stranger, 'Evening456')).status).toBe(401);
  });
});

describeOnDialects('deleting an account on %s', (t) => {
  const blog = (title: string) => ({
    title,
    category: 'Personal' as const,
    type: 'Mini blog' as const,
    short_description: 'A short one.',
    long_description: 'A longer one.',
    availability: 'Public' as const,
    photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
  });

  it('takes the password, and then everything of the account goes', async () => {
    const writer = await t.createUser({ name: 'Staying Writer' });
    const leaver = await t.createUser({ name: 'Leaving Reader' });
    const db = t.deps.database.db;
    const { insertedId: writersBlog } = await createBlog(t.context(writer.user), blog('Stays'));
    const { insertedId: leaversBlog } = await createBlog(t.context(leaver.user), blog('Goes'));
    const as = t.context(leaver.user);
    await likeBlog(as, writersBlog);
    await addComment(as, writersBlog, { commentText: 'Lovely.' });
    await followWriter(as, writer.user.id);
    await addToWishlist(as, { blogId: writersBlog, source: 'home' });
    await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email: leaver.user.email, redirectTo: '/reset-password' } });
    const now = new Date().toISOString();
    const messageId = randomUUID();
    await insertMessage(db, { id: messageId, kind: 'confirm', key: `test-${messageId}`, created_at: now });
    await insertQueueRow(db, { id: randomUUID(), message_id: messageId, email: leaver.user.email, stream: 'confirm', ref: 'test', now });
    const otherDevice = sessionCookie(await signIn(t, leaver.user.email, leaver.password))!;
    expect(await db.selectFrom('blogs').select(['likes', 'comments_count']).where('id', '=', writersBlog).executeTakeFirstOrThrow()).toEqual({ likes: 1, comments_count: 1 });

    const remove = (json: unknown) => t.request('/api/auth/delete-user', { method: 'POST', headers: { cookie: leaver.cookie }, json });
    expect((await remove({})).status).toBe(400);
    expect((await remove({ password: 'Wrong1234' })).status).toBe(400);
    expect(await db.selectFrom('user').select('id').where('id', '=', leaver.user.id).executeTakeFirst()).toBeDefined();
    const removed = await remove({ password: leaver.password });
    expect(removed.status).toBe(200);
    expect(removed.headers.getSetCookie().some((c) => /session_token=;/.test(c))).toBe(true);
    await t.runJobs();

    const id = leaver.user.id;
    const left = async (table: 'user' | 'profiles' | 'likes' | 'comments' | 'follows' | 'wishlist', column: string) =>
      (await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where(column as never, '=', id as never).executeTakeFirstOrThrow()).n;
    for (const [table, column] of [['user', 'id'], ['profiles', 'user_id'], ['likes', 'user_id'], ['comments', 'user_id'], ['follows', 'follower_id'], ['wishlist', 'user_id']] as const) {
      expect(Number(await left(table, column)), table).toBe(0);
    }
    const authDb = t.deps.database.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    expect(await authDb.selectFrom('session').select('id').where('userId', '=', id).execute()).toEqual([]);
    expect(await authDb.selectFrom('account').select('id').where('userId', '=', id).execute()).toEqual([]);
    expect(await authDb.selectFrom('verification').select('id').where('value', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('blogs').select('id').where('id', '=', leaversBlog).execute()).toEqual([]);
    expect(await db.selectFrom('mail_queue').select('id').where('email', '=', leaver.user.email).execute()).toEqual([]);
    expect((await t.request(`/api/update/${leaver.user.email}`, { headers: { cookie: otherDevice } })).status).toBe(401);
    expect((await signIn(t, leaver.user.email, leaver.password)).status).toBe(401);
    // The other writer's blog stays, its counts without the deleted account's like and comment.
    expect(await db.selectFrom('blogs').select(['likes', 'comments_count']).where('id', '=', writersBlog).executeTakeFirstOrThrow()).toEqual({ likes: 0, comments_count: 0 });
  });
  it("keeps others' replies under the account's comments, moved up, and recounts the comment likes it gave", async () => {
    const writer = await t.createUser({ name: 'Thread Writer' });
    const leaver = await t.createUser({ name: 'Thread Leaver' });
    const reader = await t.createUser({ name: 'Thread Reader' });
    const db = t.deps.database.db;
    const { insertedId: blogId } = await createBlog(t.context(writer.user), blog('Threads stay'));
    const commentId = async (text: string) => (await db.selectFrom('comments').select('id').where('comment_text', '=', text).executeTakeFirstOrThrow()).id;
    await addComment(t.context(leaver.user), blogId, { commentText: 'Leaver starts.' });
    const r1 = (await replyToComment(t.context(reader.user), await commentId('Leaver starts.'), { commentText: 'Reader answers.' })).insertedId;
    const l2 = (await replyToComment(t.context(leaver.user), r1, { commentText: 'Leaver again.' })).insertedId;
    const r2 = (await replyToComment(t.context(reader.user), l2, { commentText: 'Reader again.' })).insertedId;
    const w1 = (await replyToComment(t.context(writer.user), r2, { commentText: 'Writer joins.' })).insertedId;
    await setCommentLiked(t.context(leaver.user), r1, true);
    await setCommentLiked(t.context(writer.user), r1, true);
    expect(await db.selectFrom('comments').select('likes').where('id', '=', r1).executeTakeFirstOrThrow()).toEqual({ likes: 2 });

    const removed = await t.request('/api/auth/delete-user', { method: 'POST', headers: { cookie: leaver.cookie }, json: { password: leaver.password } });
    expect(removed.status).toBe(200);
    await t.runJobs();

    const places = await db.selectFrom('comments').select(['id', 'parent_id', 'root_id', 'depth', 'likes']).where('blog_id', '=', blogId).orderBy('depth').execute();
    expect(places).toEqual([
      { id: r1, parent_id: null, root_id: r1, depth: 0, likes: 1 },
      { id: r2, parent_id: r1, root_id: r1, depth: 1, likes: 0 },
      { id: w1, parent_id: r2, root_id: r1, depth: 2, likes: 0 },
    ]);
    expect(await db.selectFrom('blogs').select('comments_count').where('id', '=', blogId).executeTakeFirstOrThrow()).toEqual({ comments_count: 3 });
    // Readers see the thread as it now stands.
    const shown = (await (await t.request(`/api/blogs/${blogId}`)).json()) as { comments: { commentText: string; depth: number }[] };
    expect(shown.comments.map((c) => [c.commentText, c.depth])).toEqual([['Reader answers.', 0], ['Reader again.', 1], ['Writer joins.', 2]]);
  });
});
