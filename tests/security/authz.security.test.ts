import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { grantModerator, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import type { TestUser } from '#test/test-app';

/** Every role: anonymous, a writer (cookie and bearer), a moderator, and the admin (who owns the blog). */
type Who = 'anonymous' | 'other (cookie)' | 'other (bearer)' | 'moderator (bearer)' | 'admin (bearer)';
const CALLERS: Who[] = ['anonymous', 'other (cookie)', 'other (bearer)', 'moderator (bearer)', 'admin (bearer)'];
interface Case {
  name: string;
  method: string;
  path: () => string;
  body?: () => unknown;
  /** Statuses that count as a denial for this caller (none given: the call is theirs to make). */
  denied: Partial<Record<Who, number[]>>;
}

const ANON = [401];
const NOT_YOURS = [403, 404];

describeOnDialects('authorization matrix on %s', (t, dialect) => {
  let owner: TestUser;
  let other: TestUser;
  /** The owner is also the site's admin (named by the operator); `mod` is a moderator. */
  let mod: TestUser;
  let blogId = '';
  let commentId = '';
  let reportId = '';
  let hiddenId = '';
  let writerBlogId = '';
  let wishlistId = '';

  const send = (method: string, path: string, who: Who | 'owner', body?: unknown) => {
    const headers: Record<string, string> = {};
    const as = who === 'owner' || who === 'admin (bearer)' ? owner : who === 'moderator (bearer)' ? mod : other;
    if (who === 'other (cookie)') headers.cookie = as.cookie;
    else if (who !== 'anonymous') headers.authorization = `Bearer ${as.token}`;
    return t.request(path, { method, headers, ...(body === undefined ? {} : { json: body }) });
  };

  /** Every row of every table we own, hashed: a denied call must leave it identical. */
  const snapshot = async () => {
    const { db } = t.deps.database;
    const hash = createHash('sha256');
    for (const table of ['blogs', 'comments', 'likes', 'wishlist', 'subscribers', 'profiles', 'user', 'user_roles', 'reports', 'moderation_log', 'user_restrictions', 'account_approvals'] as const) {
      const rows = await db.selectFrom(table).selectAll().execute();
      hash.update(JSON.stringify(rows.map((r) => JSON.stringify(r)).sort()));
    }
    return hash.digest('hex');
  };

  beforeAll(async () => {
    owner = await t.createUser({ name: 'Owner' });
    other = await t.createUser({ name: 'Other' });
    const blog = { title: 'Mine', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp' };
    blogId = ((await (await send('POST', '/api/blogs', 'owner', blog)).json()) as { insertedId: string }).insertedId;
    hiddenId = ((await (await send('POST', '/api/blogs', 'owner', { ...blog, title: 'Draft', availability: 'Hidden' })).json()) as { insertedId: string }).insertedId;
    const item = await send('POST', '/api/wishlist', 'owner', { blogId, title: 'Mine', createdAt: new Date().toISOString() });
    wishlistId = ((await item.json()) as { insertedId: string }).insertedId;
    await send('PATCH', `/api/blogs/liked/${blogId}`, 'owner');
    writerBlogId = ((await (await send('POST', '/api/blogs', 'other (bearer)', { ...blog, title: 'A writer’s' })).json()) as { insertedId: string }).insertedId;
    mod = await t.createUser({ name: 'Mod' });
    await setAdminByOperator(t.context(null), owner.user.email, true);
    await grantModerator(t.context(owner.user), { email: mod.user.email, reason: 'Trusted' });
    await send('PATCH', `/api/blogs/${blogId}`, 'moderator (bearer)', { commentText: 'A comment to moderate' });
    commentId = ((await (await send('GET', `/api/blogs/${blogId}`, 'owner')).json()) as { comments: { _id: string }[] }).comments[0]!._id;
    const report = await send('POST', '/api/reports', 'other (bearer)', { targetType: 'comment', targetId: commentId, reason: 'Spam' });
    reportId = ((await report.json()) as { insertedId: string }).insertedId;
  });

  const both = (anon: number[], others: number[]): Record<Who, number[]> => ({ anonymous: anon, 'other (cookie)': others, 'other (bearer)': others, 'moderator (bearer)': [], 'admin (bearer)': [] });
  /** Moderation calls (docs/decisions/028): writers are refused, and moderators too where only admins may. */
  const staff = (moderator: number[] = [], admin: number[] = []): Record<Who, number[]> => ({ ...both(ANON, [403]), 'moderator (bearer)': moderator, 'admin (bearer)': admin });
  const why = () => ({ reason: 'authz matrix' });
  const cases: Case[] = [
    { name: 'update a blog', method: 'PUT', path: () => `/api/blogs/${blogId}`, body: () => ({ title: 'Taken over' }), denied: both(ANON, [403]) },
    { name: 'delete a blog', method: 'DELETE', path: () => `/api/blogs/${blogId}`, denied: both(ANON, [403]) },
    { name: 'update a hidden blog', method: 'PUT', path: () => `/api/blogs/${hiddenId}`, body: () => ({ title: 'Taken over' }), denied: both(ANON, [404]) },
    { name: 'delete a hidden blog', method: 'DELETE', path: () => `/api/blogs/${hiddenId}`, denied: both(ANON, [404]) },
    { name: 'read a hidden blog', method: 'GET', path: () => `/api/blogs/${hiddenId}`, denied: both([404], [404]) },
    { name: 'comment on a hidden blog', method: 'PATCH', path: () => `/api/blogs/${hiddenId}`, body: () => ({ commentText: 'hi' }), denied: both(ANON, [404]) },
    { name: 'like a hidden blog', method: 'PATCH', path: () => `/api/blogs/liked/${hiddenId}`, denied: both(ANON, [404]) },
    { name: 'count a view of a hidden blog', method: 'PATCH', path: () => `/api/blogs/${hiddenId}/view`, denied: both([404], [404]) },
    { name: "read someone's likes", method: 'GET', path: () => `/api/blogs/liked/${encodeURIComponent(owner.user.email)}`, denied: both(ANON, [403]) },
    { name: "take back someone's like", method: 'DELETE', path: () => `/api/blogs/liked/${blogId}`, denied: both(ANON, []) },
    { name: "read someone's wishlist", method: 'GET', path: () => `/api/wishlist/${encodeURIComponent(owner.user.email)}`, denied: both(ANON, [403]) },
    { name: "remove someone's wishlist item", method: 'DELETE', path: () => `/api/wishlist/${wishlistId}`, denied: both(ANON, NOT_YOURS) },
    { name: "read someone's profile", method: 'GET', path: () => `/api/update/${encodeURIComponent(owner.user.email)}`, denied: both(ANON, [403]) },
    { name: "change someone's profile", method: 'PATCH', path: () => `/api/update/${encodeURIComponent(owner.user.email)}`, body: () => ({ name: 'Hijacked' }), denied: both(ANON, [403]) },
    { name: "get a token for someone's email", method: 'POST', path: () => '/api/jwt', body: () => ({ email: owner.user.email }), denied: both(ANON, [403]) },
    { name: "get a token for someone's email (users/jwt)", method: 'POST', path: () => '/api/users/jwt', body: () => ({ email: owner.user.email }), denied: both(ANON, [403]) },
    { name: "save someone's user record", method: 'POST', path: () => '/api/users', body: () => ({ email: owner.user.email, name: 'Hijacked', uid: 'x' }), denied: both(ANON, [403]) },
    { name: 'write a blog anonymously', method: 'POST', path: () => '/api/blogs', body: () => ({ title: 'x' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'wishlist anonymously', method: 'POST', path: () => '/api/wishlist', body: () => ({ blogId }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'like anonymously', method: 'PATCH', path: () => `/api/blogs/liked/${blogId}`, denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'comment anonymously', method: 'PATCH', path: () => `/api/blogs/${blogId}`, body: () => ({ commentText: 'hi' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'upload anonymously', method: 'POST', path: () => '/api/images', denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: "change someone's account via the auth library", method: 'POST', path: () => '/api/auth/update-user', body: () => ({ name: 'Hijacked' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'turn two-factor on anonymously', method: 'POST', path: () => '/api/auth/two-factor/enable', body: () => ({ password: 'Sunset123' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'turn two-factor off anonymously', method: 'POST', path: () => '/api/auth/two-factor/disable', body: () => ({ password: 'Sunset123' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'send a sign-in code with no pending sign-in', method: 'POST', path: () => '/api/auth/two-factor/verify-totp', body: () => ({ code: '123456' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'send a recovery code with no pending sign-in', method: 'POST', path: () => '/api/auth/two-factor/verify-backup-code', body: () => ({ code: 'abcde-fghij' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: 'change a password anonymously', method: 'POST', path: () => '/api/auth/change-password', body: () => ({ currentPassword: 'x', newPassword: 'Sunset1234' }), denied: { anonymous: ANON, 'other (cookie)': [], 'other (bearer)': [] } },
    { name: "edit someone's comment", method: 'PUT', path: () => `/api/comments/${commentId}`, body: () => ({ commentText: 'Hijacked' }), denied: { ...both(ANON, [403]) } },
    { name: "delete someone's comment on someone else's blog", method: 'DELETE', path: () => `/api/comments/${commentId}`, denied: { ...both(ANON, [403]) } },
    { name: 'read the moderation queue', method: 'GET', path: () => '/api/moderation/reports', denied: staff() },
    // One rank rule for every moderation action (docs/decisions/028): each action × the owner's rank.
    // The blog is the admin's, the comment (and the report on it) the moderator's, `writerBlogId` a writer's.
    ...(['hide', 'restore', 'delete'] as const).flatMap((act): Case[] => [
      { name: `${act} an admin's blog`, method: 'POST', path: () => `/api/moderation/blogs/${blogId}/${act}`, body: why, denied: staff([403], [403]) },
      { name: `${act} a moderator's comment`, method: 'POST', path: () => `/api/moderation/comments/${commentId}/${act}`, body: why, denied: staff([403]) },
      { name: `${act} a writer's blog`, method: 'POST', path: () => `/api/moderation/blogs/${writerBlogId}/${act}`, body: why, denied: staff() },
      // Moderation acts only on what others can see: a Hidden draft does not exist for it.
      { name: `${act} a Hidden draft`, method: 'POST', path: () => `/api/moderation/blogs/${hiddenId}/${act}`, body: why, denied: staff([404], [404]) },
    ]),
    { name: "dismiss a report on a moderator's comment", method: 'POST', path: () => `/api/moderation/reports/${reportId}/dismiss`, body: why, denied: staff([403]) },
    { name: 'suspend an admin', method: 'POST', path: () => `/api/moderation/users/${owner.user.id}/suspend`, body: why, denied: staff([403], [403]) },
    { name: 'lift an admin’s suspension', method: 'POST', path: () => `/api/moderation/users/${owner.user.id}/unsuspend`, body: why, denied: staff([403], [403]) },
    { name: 'ban an admin from commenting', method: 'POST', path: () => `/api/moderation/users/${owner.user.id}/comment-ban`, body: why, denied: staff([403], [403]) },
    { name: 'lift an admin’s comment ban', method: 'POST', path: () => `/api/moderation/users/${owner.user.id}/comment-unban`, body: why, denied: staff([403], [403]) },
    { name: 'suspend a moderator', method: 'POST', path: () => `/api/moderation/users/${mod.user.id}/suspend`, body: why, denied: staff([403]) },
    { name: 'list the moderators', method: 'GET', path: () => '/api/moderation/moderators', denied: staff([403]) },
    { name: 'make a moderator', method: 'POST', path: () => '/api/moderation/moderators', body: () => ({ email: other.user.email }), denied: staff([403]) },
    { name: 'take a moderator back', method: 'DELETE', path: () => `/api/moderation/moderators/${mod.user.id}`, body: why, denied: staff([403]) },
    { name: 'read the audit log', method: 'GET', path: () => '/api/moderation/log', denied: staff([403]) },
    { name: 'report anonymously', method: 'POST', path: () => '/api/reports', body: () => ({ targetType: 'blog', targetId: blogId, reason: 'Spam' }), denied: { ...both(ANON, []) } },
    { name: 'report the same comment twice', method: 'POST', path: () => '/api/reports', body: () => ({ targetType: 'comment', targetId: commentId, reason: 'Spam' }), denied: { ...both(ANON, [409]) } },
    { name: 'report a hidden blog of someone else', method: 'POST', path: () => '/api/reports', body: () => ({ targetType: 'blog', targetId: hiddenId, reason: 'Spam' }), denied: { ...both(ANON, [404]), 'moderator (bearer)': [404], 'admin (bearer)': [403] } },
    // Reporting an author, and the spam hold's calls (docs/decisions/029).
    { name: 'report an author anonymously', method: 'POST', path: () => '/api/reports', body: () => ({ targetType: 'user', targetId: owner.user.id, reason: 'Harassment or hate' }), denied: both(ANON, []) },
    { name: 'report oneself as an author', method: 'POST', path: () => '/api/reports', body: () => ({ targetType: 'user', targetId: owner.user.id, reason: 'Spam' }), denied: { 'admin (bearer)': [403] } },
    { name: 'report an author who does not exist', method: 'POST', path: () => '/api/reports', body: () => ({ targetType: 'user', targetId: 'nobody', reason: 'Spam' }), denied: { ...both(ANON, [404]), 'moderator (bearer)': [404], 'admin (bearer)': [404] } },
    { name: 'read what waits for approval', method: 'GET', path: () => '/api/moderation/pending', denied: staff() },
    { name: "approve an admin's blog", method: 'POST', path: () => `/api/moderation/blogs/${blogId}/approve`, body: why, denied: staff([403], [403]) },
    { name: "approve a moderator's comment", method: 'POST', path: () => `/api/moderation/comments/${commentId}/approve`, body: why, denied: staff([403], [404]) },
    { name: "approve a writer's blog that is not waiting", method: 'POST', path: () => `/api/moderation/blogs/${writerBlogId}/approve`, body: why, denied: staff([404], [404]) },
    { name: 'approve a Hidden draft', method: 'POST', path: () => `/api/moderation/blogs/${hiddenId}/approve`, body: why, denied: staff([404], [404]) },
    { name: 'approve an account (a writer: their own)', method: 'POST', path: () => `/api/moderation/users/${other.user.id}/approve`, body: why, denied: staff() },
    { name: 'approve without a reason', method: 'POST', path: () => `/api/moderation/users/${other.user.id}/approve`, body: () => ({}), denied: { ...both(ANON, [400, 403]), 'moderator (bearer)': [400], 'admin (bearer)': [400] } },
  ];

  it('denies every call that is not the caller’s to make, and changes nothing', async () => {
    let expected = 0;
    const allowed: string[] = [];
    const before = await snapshot();
    for (const c of cases) {
      for (const who of CALLERS) {
        const statuses = c.denied[who] ?? [];
        if (statuses.length === 0) continue;
        expected++;
        const res = await send(c.method, c.path(), who, c.body?.());
        if (!statuses.includes(res.status)) allowed.push(`${c.name} as ${who}: ${res.status} ${await res.text()}`);
        else expect(((await res.json()) as { message: string }).message).toBeTruthy();
      }
    }
    const changed = (await snapshot()) === before ? 0 : 1;
    console.log(`authz (${dialect}): ${allowed.length} allowed / ${expected} expected-denied, ${changed} rows changed`);
    expect(allowed).toEqual([]);
    expect(changed).toBe(0);
  });

  it('lets the owner do what is theirs, with cookie and with bearer', async () => {
    const viaCookie = await t.request(`/api/blogs/${blogId}`, { method: 'PUT', headers: { cookie: owner.cookie }, json: { title: 'Still mine' } });
    expect(viaCookie.status).toBe(200);
    expect((await send('GET', `/api/blogs/${hiddenId}`, 'owner')).status).toBe(200);
    expect((await send('GET', `/api/wishlist/${encodeURIComponent(owner.user.email)}`, 'owner')).status).toBe(200);
    expect((await send('GET', `/api/update/${encodeURIComponent(owner.user.email)}`, 'owner')).status).toBe(200);
  });

  it('ignores mass-assigned fields: owner, counts and dates come from the server', async () => {
    const res = await send('POST', '/api/blogs', 'other (bearer)', {
      title: 'Sneaky', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp',
      email: owner.user.email, Name: 'Owner', name: 'Owner', owner_id: owner.user.id, likes: 999, likedBy: [owner.user.email], views: 1e6, createdAt: '1999-01-01T00:00:00.000Z', _id: blogId,
    });
    expect(res.status).toBe(201);
    const { insertedId } = (await res.json()) as { insertedId: string };
    expect(insertedId).not.toBe(blogId);
    const created = (await (await send('GET', `/api/blogs/${insertedId}`, 'other (bearer)')).json()) as Record<string, unknown>;
    expect(created).toMatchObject({ email: other.user.email, isOwner: true, name: 'Other', likes: 0, views: 0, likedBy: [] });
    expect(await (await send('GET', `/api/blogs/${insertedId}`, 'owner')).json()).toMatchObject({ isOwner: false, name: 'Other' });
    expect(created.createdAt).not.toBe('1999-01-01T00:00:00.000Z');
    const put = await send('PUT', `/api/blogs/${insertedId}`, 'other (bearer)', { likes: 999, email: owner.user.email, views: 5 });
    expect([200, 400]).toContain(put.status);
    const after = (await (await send('GET', `/api/blogs/${insertedId}`, 'other (bearer)')).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ email: other.user.email, isOwner: true, likes: 0, views: 0 });
  });
});
