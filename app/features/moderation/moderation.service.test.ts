import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { blogInput } from '#test/blog-inputs';
import { addComment, createBlog, getBlog, listBlogs, updateBlog, listFeaturedBlogs, listPublicBlogRefs, listRecentBlogs } from '~/features/blogs/blogs.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import type { TestUser } from '#test/test-app';
import {
  banFromCommenting,
  deleteContent,
  dismissReport,
  grantModerator,
  hideContent,
  listAuditLog,
  listModerationQueue,
  reportContent,
  requireRole,
  restoreContent,
  revokeModerator,
  setAdminByOperator,
  suspendUser,
  unsuspendUser,
} from './moderation.service.server';
import { approveContent, listPendingAndHeld } from './spam-hold.service.server';

const why = { reason: 'Spam links' };

describeOnDialects('moderation service on %s', (t) => {
  let admin: TestUser;
  let mod: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let at = Date.parse('2026-11-27T08:00:00.000Z');
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), now: () => new Date((at += 60_000)) });

  beforeAll(async () => {
    admin = await t.createUser({ name: 'Admin' });
    mod = await t.createUser({ name: 'Mod' });
    writer = await t.createUser({ name: 'Writer' });
    reader = await t.createUser({ name: 'Reader' });
    await expect(setAdminByOperator(ctx(null), admin.user.email.toUpperCase(), true)).resolves.toMatchObject({ changed: true });
    await expect(setAdminByOperator(ctx(null), admin.user.email, true)).resolves.toMatchObject({ changed: false });
  });

  it('roles: the operator names admins, admins grant and revoke moderators, nobody else does', async () => {
    await expect(grantModerator(ctx(writer), { email: mod.user.email, reason: 'x' })).rejects.toMatchObject({ status: 403, message: MESSAGES.adminsOnly });
    await expect(grantModerator(ctx(null), { email: mod.user.email, reason: 'x' })).rejects.toMatchObject({ status: 401 });
    await expect(grantModerator(ctx(admin), { email: mod.user.email, reason: 'Trusted reader' })).resolves.toMatchObject({ modifiedCount: 1 });
    await expect(requireRole(ctx(mod), 'moderator')).resolves.toMatchObject({ role: 'moderator' });
    await expect(requireRole(ctx(mod), 'admin')).rejects.toMatchObject({ status: 403 });
    await expect(grantModerator(ctx(mod), { email: reader.user.email, reason: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(grantModerator(ctx(admin), { email: reader.user.email, reason: 'Trial' })).resolves.toMatchObject({ modifiedCount: 1 });
    await expect(revokeModerator(ctx(admin), reader.user.id, { reason: 'Trial over' })).resolves.toEqual({ modifiedCount: 1 });
    await expect(requireRole(ctx(reader), 'moderator')).rejects.toMatchObject({ status: 403, message: MESSAGES.moderatorsOnly });
  });

  it('reports: one open per reporter and target, never one’s own, with a snapshot; the queue groups them', async () => {
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput({ title: 'Buy cheap pills' }));
    await expect(reportContent(ctx(reader), { targetType: 'blog', targetId: blogId, reason: 'Spam', details: 'links everywhere' })).resolves.toHaveProperty('insertedId');
    await expect(reportContent(ctx(reader), { targetType: 'blog', targetId: blogId, reason: 'Spam', details: '' })).rejects.toMatchObject({ status: 409, message: MESSAGES.reportAlreadyOpen });
    await expect(reportContent(ctx(writer), { targetType: 'blog', targetId: blogId, reason: 'Spam', details: '' })).rejects.toMatchObject({ status: 403 });
    await expect(reportContent(ctx(mod), { targetType: 'blog', targetId: blogId, reason: 'Copyright', details: '' })).resolves.toHaveProperty('insertedId');
    await expect(reportContent(ctx(reader), { targetType: 'blog', targetId: 'nope', reason: 'Spam', details: '' })).rejects.toMatchObject({ status: 404 });
    const { insertedId: draftId } = await createBlog(ctx(writer), blogInput({ availability: 'Hidden' }));
    await expect(reportContent(ctx(reader), { targetType: 'blog', targetId: draftId, reason: 'Spam', details: '' })).rejects.toMatchObject({ status: 404 });
    await expect(reportContent(ctx(reader), { targetType: 'user', targetId: writer.user.id, reason: 'Harassment or hate', details: '' })).resolves.toHaveProperty('insertedId');

    await expect(listModerationQueue(ctx(writer))).rejects.toMatchObject({ status: 403 });
    const queue = await listModerationQueue(ctx(mod));
    expect(queue.map((q) => q.targetType)).toEqual(['user', 'blog']);
    expect(queue[1]).toMatchObject({ targetId: blogId, title: 'Buy cheap pills', ownerId: writer.user.id, reports: [{ reason: 'Copyright', reporterName: 'Mod' }, { reason: 'Spam', details: 'links everywhere', reporterName: 'Reader' }] });
    expect(queue[1]!.text).toContain('A longer one.');

    await dismissReport(ctx(mod), queue[0]!.reports[0]!.id, { reason: 'Not abuse' });
    await expect(dismissReport(ctx(mod), queue[0]!.reports[0]!.id, { reason: 'again' })).rejects.toMatchObject({ status: 404 });
    // Dismissed, the reporter may report again.
    await expect(reportContent(ctx(reader), { targetType: 'user', targetId: writer.user.id, reason: 'Spam', details: '' })).resolves.toHaveProperty('insertedId');
  });

  it('hide: gone for everyone but its author (who sees the reason) in every read; restore brings it back', async () => {
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput({ title: 'Spam blog' }));
    await addComment(ctx(reader), blogId, { commentText: 'Spam comment' });
    await addComment(ctx(mod), blogId, { commentText: 'A fair comment' });
    const commentId = (await getBlog(ctx(reader), blogId)).comments!.find((c) => c.commentText === 'Spam comment')!._id;
    await reportContent(ctx(mod), { targetType: 'comment', targetId: commentId, reason: 'Spam', details: '' });

    await expect(hideContent(ctx(writer), 'comment', commentId, why)).rejects.toMatchObject({ status: 403 });
    await expect(hideContent(ctx(mod), 'comment', commentId, why)).resolves.toEqual({ modifiedCount: 1 });
    expect((await listModerationQueue(ctx(mod))).some((q) => q.targetId === commentId)).toBe(false);
    for (const viewer of [null, writer, mod]) expect((await getBlog(ctx(viewer), blogId)).comments!.map((c) => c.commentText)).toEqual(['A fair comment']);
    const seenByAuthor = (await getBlog(ctx(reader), blogId)).comments!;
    expect(seenByAuthor.find((c) => c._id === commentId)).toMatchObject({ removed: { reason: 'Spam links' }, isMine: true });
    await restoreContent(ctx(mod), 'comment', commentId, { reason: 'Appeal upheld' });
    expect((await getBlog(ctx(null), blogId)).comments!.map((c) => c.commentText)).toEqual(['Spam comment', 'A fair comment']);

    await hideContent(ctx(admin), 'blog', blogId, why);
    for (const viewer of [null, reader, mod]) await expect(getBlog(ctx(viewer), blogId)).rejects.toMatchObject({ status: 404 });
    const reads = async (viewer: TestUser | null) => [
      ...(await listBlogs(ctx(viewer), { page: 1, limit: 50 })).blogs.map((b) => b._id),
      ...(await listBlogs(ctx(viewer), { page: 1, limit: 50, q: 'spam' })).blogs.map((b) => b._id),
      ...(await listRecentBlogs(ctx(viewer))).map((b) => b._id),
      ...(await listFeaturedBlogs(ctx(viewer))).map((b) => b._id),
      ...(await listPublicBlogRefs(ctx(viewer), { offset: 0, limit: 50 })).refs.map((r) => r.id),
    ];
    expect(await reads(null)).not.toContain(blogId);
    expect(await reads(reader)).not.toContain(blogId);
    await expect(getBlog(ctx(writer), blogId)).resolves.toMatchObject({ removed: { reason: 'Spam links' }, isOwner: true });
    expect((await listBlogs(ctx(writer), { page: 1, limit: 50 })).blogs.map((b) => b._id)).toContain(blogId);
    await restoreContent(ctx(mod), 'blog', blogId, { reason: 'Mistake' });
    expect(await reads(null)).toContain(blogId);
    await expect(getBlog(ctx(writer), blogId)).resolves.not.toHaveProperty('removed');

    await expect(deleteContent(ctx(mod), 'comment', commentId, why)).resolves.toEqual({ deletedCount: 1 });
    await expect(deleteContent(ctx(mod), 'blog', blogId, why)).resolves.toEqual({ deletedCount: 1 });
    await expect(deleteContent(ctx(mod), 'blog', blogId, why)).rejects.toMatchObject({ status: 404 });
  });

  it('suspend: every session and bearer token ends at once; reads work, every write is 403 with a clear message', async () => {
    const target = await t.createUser({ name: 'Spammer' });
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput());
    await expect(suspendUser(ctx(target), writer.user.id, { reason: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(suspendUser(ctx(mod), admin.user.id, { reason: 'x' })).rejects.toMatchObject({ status: 403, message: MESSAGES.cannotModerateStaff });
    await expect(suspendUser(ctx(mod), mod.user.id, { reason: 'x' })).rejects.toMatchObject({ status: 403 });
    const { until, sessionsEnded } = await suspendUser(ctx(mod), target.user.id, { reason: 'Spam run', days: 7 });
    expect(until).toMatch(/^2026-/);
    expect(sessionsEnded).toBeGreaterThan(0);
    for (const headers of [{ cookie: target.cookie }, { authorization: `Bearer ${target.token}` }] as Record<string, string>[]) {
      expect((await t.request('/api/blogs', { method: 'POST', headers, json: blogInput() })).status).toBe(401);
    }
    const message = MESSAGES.suspended(until);
    await expect(createBlog(ctx(target), blogInput())).rejects.toMatchObject({ status: 403, message });
    await expect(addComment(ctx(target), blogId, { commentText: 'hi' })).rejects.toMatchObject({ status: 403, message });
    await expect(reportContent(ctx(target), { targetType: 'blog', targetId: blogId, reason: 'Spam', details: '' })).rejects.toMatchObject({ status: 403, message });
    await expect(getBlog(ctx(target), blogId)).resolves.toHaveProperty('_id', blogId);
    await unsuspendUser(ctx(mod), target.user.id, { reason: 'Served' });
    await expect(addComment(ctx(target), blogId, { commentText: 'back' })).resolves.toEqual({ success: true });

    await banFromCommenting(ctx(mod), target.user.id, { reason: 'Rude' });
    await expect(addComment(ctx(target), blogId, { commentText: 'again' })).rejects.toMatchObject({ status: 403, message: MESSAGES.commentBanned });
    await expect(createBlog(ctx(target), blogInput())).resolves.toHaveProperty('insertedId');
  });

  it('the audit log lists every action with actor, target and reason, for admins only', async () => {
    await expect(listAuditLog(ctx(mod), { page: 1, limit: 50 })).rejects.toMatchObject({ status: 403 });
    const { entries, total } = await listAuditLog(ctx(admin), { page: 1, limit: 50 });
    expect(total).toBe(entries.length);
    const actions = entries.map((e) => e.action.split(' ')[0]).reverse();
    expect(actions).toEqual([
      'grant_admin', 'grant_moderator', 'grant_moderator', 'revoke_moderator', 'dismiss_report',
      'hide', 'restore', 'hide', 'restore', 'delete', 'delete', 'suspend_until', 'unsuspend', 'comment_ban',
    ]);
    expect(entries.at(-1)).toMatchObject({ actorId: null, actorName: 'operator', targetType: 'user', targetId: admin.user.id });
    expect(entries[0]).toMatchObject({ actorName: 'Mod', reason: 'Rude' });
    for (const e of entries) expect(e.reason).toBeTruthy();
  });

  it('one rank rule for every action on content and reports: a moderator acts on writers only, an admin also on moderators, nobody on an admin or themselves', async () => {
    const owners = { writer, moderator: mod, admin } as const;
    const actors = { moderator: mod, admin } as const;
    const allowed = (actor: keyof typeof actors, owner: keyof typeof owners) => owner === 'writer' || (actor === 'admin' && owner === 'moderator');
    const wrong: string[] = [];
    for (const [ownerRank, owner] of Object.entries(owners)) {
      for (const [actorRank, actor] of Object.entries(actors)) {
        const { insertedId: blogId } = await createBlog(ctx(owner), blogInput({ title: `${ownerRank}'s post` }));
        const { insertedId: readersBlog } = await createBlog(ctx(reader), blogInput({ title: 'A reader’s post' }));
        await addComment(ctx(owner), readersBlog, { commentText: `${ownerRank}'s comment` });
        const commentId = (await getBlog(ctx(owner), readersBlog)).comments!.at(-1)!._id;
        const { insertedId: reportId } = await reportContent(ctx(reader), { targetType: 'comment', targetId: commentId, reason: 'Spam', details: '' });
        const actions: [string, () => Promise<unknown>][] = [
          ['dismiss', () => dismissReport(ctx(actor), reportId, why)],
          ['hide blog', () => hideContent(ctx(actor), 'blog', blogId, why)],
          ['restore blog', () => restoreContent(ctx(actor), 'blog', blogId, why)],
          ['hide comment', () => hideContent(ctx(actor), 'comment', commentId, why)],
          ['restore comment', () => restoreContent(ctx(actor), 'comment', commentId, why)],
          // Allowed here, approving what is not waiting is a 404; refused, the rank answers first.
          ['approve comment', () => approveContent(ctx(actor), 'comment', commentId, why)],
          ['delete comment', () => deleteContent(ctx(actor), 'comment', commentId, why)],
          ['delete blog', () => deleteContent(ctx(actor), 'blog', blogId, why)],
        ];
        for (const [name, act] of actions) {
          const outcome = await act().then(() => 200, (error: { status?: number }) => error.status ?? 500);
          const expected = allowed(actorRank as keyof typeof actors, ownerRank as keyof typeof owners) ? (name.startsWith('approve') ? 404 : 200) : 403;
          if (outcome !== expected) wrong.push(`${actorRank} may ${name} of ${ownerRank}: ${outcome}, expected ${expected}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('moderation acts only on what others can see: a Hidden draft and its comments are not found, and never listed', async () => {
    // Public long enough for a reader's comment, then the writer's private draft again.
    const { insertedId: draftId } = await createBlog(ctx(writer), blogInput({ long_description: 'Private text' }));
    await addComment(ctx(reader), draftId, { commentText: 'An early comment' });
    await updateBlog(ctx(writer), draftId, { availability: 'Hidden' });
    const noteId = (await getBlog(ctx(writer), draftId)).comments![0]!._id;
    for (const actor of [mod, admin]) {
      for (const [type, id] of [['blog', draftId], ['comment', noteId]] as const) {
        for (const act of [hideContent, restoreContent, deleteContent, approveContent]) {
          await expect(act(ctx(actor), type, id, why)).rejects.toMatchObject({ status: 404, message: MESSAGES.contentNotFound });
        }
      }
    }
    await expect(getBlog(ctx(writer), draftId)).resolves.toMatchObject({ long_description: 'Private text', comments: [{ commentText: 'An early comment' }] });

    // A held account's draft with many links waits (pending), but only for its author: no moderator lists it.
    const held = await t.createUser({ name: 'New writer' });
    const holdCtx = (user: TestUser): ServiceContext => ({ ...ctx(user), spamHold: { days: 3, maxLinks: 0 } });
    const { insertedId: heldDraft } = await createBlog(holdCtx(held), blogInput({ availability: 'Hidden', long_description: 'See https://example.com/private' }));
    const { insertedId: heldPublic } = await createBlog(holdCtx(held), blogInput({ long_description: 'See https://example.com/public' }));
    const pending = (await listPendingAndHeld(ctx(mod))).pending.map((p) => p.targetId);
    expect(pending).toContain(heldPublic);
    expect(pending).not.toContain(heldDraft);
  });

  it('a suspended moderator reads the queue but acts on nothing', async () => {
    const { insertedId: blogId } = await createBlog(ctx(writer), blogInput({ title: 'Fine post' }));
    const spare = await t.createUser({ name: 'Spare mod' });
    await grantModerator(ctx(admin), { email: spare.user.email, reason: 'Help' });
    await suspendUser(ctx(admin), spare.user.id, { reason: 'Abused the role' });
    await expect(listModerationQueue(ctx(spare))).resolves.toBeInstanceOf(Array);
    await expect(hideContent(ctx(spare), 'blog', blogId, why)).rejects.toMatchObject({ status: 403, message: MESSAGES.suspended(null) });
    await expect(suspendUser(ctx(spare), writer.user.id, why)).rejects.toMatchObject({ status: 403, message: MESSAGES.suspended(null) });
    await expect(getBlog(ctx(null), blogId)).resolves.not.toHaveProperty('removed');
  });
});
