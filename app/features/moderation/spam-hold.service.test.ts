import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import {
  addComment,
  createBlog,
  editComment,
  getBlog,
  getBlogWithAuthor,
  listAuthorBlogs,
  listBlogs,
  listFeaturedBlogs,
  listPublicBlogRefs,
  listRecentBlogs,
  updateBlog,
} from '~/features/blogs/blogs.service.server';
import type { CreateBlogInput } from '~/features/blogs/blogs.schema';
import type { ServiceContext } from '~/lib/core/service-context';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { grantModerator, listAuditLog, setAdminByOperator } from './moderation.service.server';
import { countLinks, holdEnd } from '~/kernel/standing.server';
import { approveAccount, approveContent, countAccountsWaiting, listPendingAndHeld, releaseExpiredHolds } from './spam-hold.service.server';

const blogInput = (overrides: Partial<CreateBlogInput> = {}): CreateBlogInput => ({
  title: 'Dusk over the bay',
  category: 'Personal',
  type: 'Mini blog',
  short_description: 'A short one.',
  long_description: 'See [my site](https://one.example).',
  availability: 'Public',
  photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
  ...overrides,
});
const MANY_LINKS = 'https://a.example https://b.example www.c.example';
const DAY = 86_400_000;

describe('countLinks', () => {
  it('counts addresses with a scheme or www., in every text given', () => {
    expect(countLinks(['no links here', null, undefined])).toBe(0);
    expect(countLinks(['[x](https://a.example) and http://b.example', 'www.c.example'])).toBe(3);
    expect(countLinks([MANY_LINKS])).toBe(3);
  });

  it("counts a rendered body's anchors that have an address", () => {
    expect(countLinks([], '<p><a href="https://a.example" rel="ugc">a</a> <a>no address</a> <img src="/uploads/x.webp"></p>')).toBe(1);
    expect(countLinks(['www.a.example'], '<a href="mailto:b@example.org">b</a>')).toBe(2);
  });
});

describe.each(TEST_DIALECTS)('the spam hold on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let fresh: TestUser;
  let reader: TestUser;
  // Accounts are made now (real time); the services' clock starts there and moves on.
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), now: clock, spamHold: { days: 3, maxLinks: 2 } });
  const publicIds = async () => (await listPublicBlogRefs(ctx(null), { offset: 0, limit: 100 })).refs.map((r) => r.id);
  const feedIds = async () => (await listBlogs(ctx(null), { page: 1, limit: 20, indexable: true })).blogs.map((b) => b._id);
  const featuredIds = async () => (await listFeaturedBlogs(ctx(null))).map((b) => b._id);
  // Announcing follows "blog.published" as a job: run what the changes so far queued, then look.
  const announced = async (blogId: string) => {
    await t.runJobs();
    return (await t.deps.database.db.selectFrom('mail_messages').select('id').where('key', '=', `post:${blogId}`).execute()).length;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.createUser({ name: 'Admin' });
    fresh = await t.createUser({ name: 'Fresh' });
    reader = await t.createUser({ name: 'Reader' });
    await setAdminByOperator(ctx(null), admin.user.email, true);
  });
  afterAll(async () => t?.close());

  it('a new account is held for N days; N = 0 or an approval ends it', async () => {
    const end = await holdEnd(ctx(null), fresh.user.id);
    expect(end).not.toBeNull();
    expect(Date.parse(end!) - Date.now()).toBeGreaterThan(3 * DAY - 60_000);
    expect(await holdEnd({ ...ctx(null), spamHold: { days: 0, maxLinks: 2 } }, fresh.user.id)).toBeNull();
    expect(await holdEnd({ ...ctx(null), now: () => new Date(Date.now() + 3 * DAY + 60_000) }, fresh.user.id)).toBeNull();
  });

  it("a held account's blog is listed and readable, but not in the sitemap, feeds, featured or the newsletter; its links are nofollow", async () => {
    const { insertedId } = await createBlog(ctx(fresh), blogInput({ title: 'Held dusk' }));
    expect(await announced(insertedId)).toBe(0);
    expect(await publicIds()).not.toContain(insertedId);
    expect(await feedIds()).not.toContain(insertedId);
    expect(await featuredIds()).not.toContain(insertedId);
    // Readers still find it on the site, and it reads as usual.
    expect((await listRecentBlogs(ctx(null))).map((b) => b._id)).toContain(insertedId);
    expect((await listBlogs(ctx(null), { page: 1, limit: 20 })).blogs.map((b) => b._id)).toContain(insertedId);
    expect((await getBlogWithAuthor(ctx(reader), insertedId)).held).toBe(true);
    // The sitemap's count agrees with its list.
    expect((await listPublicBlogRefs(ctx(null), { offset: 0, limit: 0 })).total).toBe((await publicIds()).length);
  });

  it('more than K links: the blog or comment waits, shown only to its author, until a moderator approves it', async () => {
    const { insertedId: blogId } = await createBlog(ctx(fresh), blogInput({ title: 'Link farm', long_description: MANY_LINKS }));
    await expect(getBlog(ctx(reader), blogId)).rejects.toMatchObject({ status: 404 });
    await expect(getBlog(ctx(null), blogId)).rejects.toMatchObject({ status: 404 });
    expect(await getBlog(ctx(fresh), blogId)).toMatchObject({ pending: true, isOwner: true });
    expect((await listBlogs(ctx(null), { page: 1, limit: 50 })).blogs.map((b) => b._id)).not.toContain(blogId);
    expect((await listBlogs(ctx(fresh), { page: 1, limit: 50 })).blogs.map((b) => b._id)).toContain(blogId);
    expect((await listAuthorBlogs(ctx(reader), fresh.user.id)).map((b) => b._id)).not.toContain(blogId);

    const { insertedId: readerBlog } = await createBlog({ ...ctx(reader), spamHold: { days: 0, maxLinks: 2 } }, blogInput({ title: 'Quiet harbour' }));
    await expect(addComment(ctx(fresh), readerBlog, { commentText: `Buy now ${MANY_LINKS}` })).resolves.toEqual({ success: true, pending: true });
    await addComment(ctx(fresh), readerBlog, { commentText: 'Lovely, one link: https://one.example' });
    expect((await getBlog(ctx(null), readerBlog)).comments!.map((c) => c.commentText)).toEqual(['Lovely, one link: https://one.example']);
    const own = (await getBlog(ctx(fresh), readerBlog)).comments!;
    expect(own.map((c) => [c.commentText.slice(0, 7), c.pending ?? false])).toEqual([['Buy now', true], ['Lovely,', false]]);
    // An edit that adds links makes a shown comment wait too.
    await editComment(ctx(fresh), own[1]!._id, { commentText: `Edited ${MANY_LINKS}` });
    expect((await getBlog(ctx(null), readerBlog)).comments).toEqual([]);

    const queue = await listPendingAndHeld(ctx(admin));
    expect(queue.pending.map((p) => [p.targetType, p.ownerName])).toEqual([['blog', 'Fresh'], ['comment', 'Fresh'], ['comment', 'Fresh']]);
    expect(queue.held.map((h) => h.name)).toEqual(['Fresh']);
    await expect(listPendingAndHeld(ctx(reader))).rejects.toMatchObject({ status: 403 });
    // A waiting comment is not said to anyone (no "comment.posted") until a moderator shows it.
    const commentEvents = async () =>
      (await t.deps.database.db.selectFrom('jobs').select('payload').where('kind', '=', 'event').execute())
        .map((r) => JSON.parse(r.payload) as { name: string; data: { commentId?: string } })
        .filter((e) => e.name === 'comment.posted' && e.data.commentId === own[0]!._id);
    expect(await commentEvents()).toHaveLength(0);
    await expect(approveContent(ctx(reader), 'comment', own[0]!._id, { reason: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(approveContent(ctx(admin), 'comment', own[0]!._id, { reason: 'Fine after all' })).resolves.toEqual({ modifiedCount: 1 });
    expect((await commentEvents()).map((e) => e.data)).toEqual([{ commentId: own[0]!._id, blogId: readerBlog, blogOwnerId: reader.user.id, authorId: fresh.user.id, parentId: null, parentAuthorId: null, remoteAuthor: null }]);
    await expect(approveContent(ctx(admin), 'comment', own[0]!._id, { reason: 'Again' })).rejects.toMatchObject({ status: 404 });
    expect((await getBlog(ctx(null), readerBlog)).comments!.map((c) => c.commentText.slice(0, 7))).toEqual(['Buy now']);
    // The approved blog is shown, and still held (not announced) until the account's hold ends.
    await approveContent(ctx(admin), 'blog', blogId, { reason: 'A travel guide' });
    expect(await getBlog(ctx(null), blogId)).not.toHaveProperty('pending');
    expect(await announced(blogId)).toBe(0);
    expect(await publicIds()).not.toContain(blogId);
  });

  it('"Approve account" ends the hold at once: everything appears, is announced, and the log says who and why', async () => {
    const own = (await listAuthorBlogs(ctx(fresh), fresh.user.id)).map((b) => b._id);
    expect(own).toHaveLength(2);
    await expect(approveAccount(ctx(reader), fresh.user.id, { reason: 'x' })).rejects.toMatchObject({ status: 403 });
    await expect(approveAccount(ctx(admin), fresh.user.id, { reason: 'Known photographer' })).resolves.toEqual({ modifiedCount: 1 });
    await expect(approveAccount(ctx(admin), fresh.user.id, { reason: 'Twice' })).resolves.toEqual({ modifiedCount: 0 });
    for (const id of own) {
      expect(await publicIds()).toContain(id);
      expect(await feedIds()).toContain(id);
      expect(await featuredIds()).toContain(id);
      expect(await announced(id)).toBe(1);
      expect((await getBlogWithAuthor(ctx(null), id)).held).toBe(false);
    }
    expect((await listPendingAndHeld(ctx(admin))).pending.map((p) => p.targetType)).toEqual([]);
    expect(await holdEnd(ctx(null), fresh.user.id)).toBeNull();
    // Later text with many links no longer waits.
    const { insertedId } = await createBlog(ctx(fresh), blogInput({ title: 'Trusted links', long_description: MANY_LINKS }));
    expect(await getBlog(ctx(null), insertedId)).toMatchObject({ title: 'Trusted links' });
    expect(await announced(insertedId)).toBe(1);
    // Every action of this run, oldest first, with actor, target and reason (refusals and repeats leave none).
    const { entries } = await listAuditLog(ctx(admin), { page: 1, limit: 50 });
    expect(entries.reverse().map((e) => [e.actorName, e.action, e.targetType, e.reason])).toEqual([
      ['operator', 'grant_admin', 'user', 'operator command line'],
      ['Admin', 'approve', 'comment', 'Fine after all'],
      ['Admin', 'approve', 'blog', 'A travel guide'],
      ['Admin', 'approve_account', 'user', 'Known photographer'],
    ]);
    expect(entries.at(-1)!.targetId).toBe(fresh.user.id);
  });

  it('the hold ends by itself after N days: the release job makes the blogs appear (and announces them) as one change', async () => {
    const late = await t.createUser({ name: 'Late' });
    const { insertedId } = await createBlog(ctx(late), blogInput({ title: 'Waiting for days' }));
    const { insertedId: draft } = await createBlog(ctx(late), blogInput({ title: 'A draft', availability: 'Hidden' }));
    // Made Public while held: not announced yet.
    await updateBlog(ctx(late), draft, { availability: 'Public' });
    expect(await announced(draft)).toBe(0);
    expect(await releaseExpiredHolds(ctx(null))).toEqual({ released: 0 });
    expect(await publicIds()).not.toContain(insertedId);
    offset = 3 * DAY + 60_000;
    expect(await releaseExpiredHolds(ctx(null))).toEqual({ released: 2 });
    expect(await publicIds()).toEqual(expect.arrayContaining([insertedId, draft]));
    expect(await announced(insertedId)).toBe(1);
    expect(await announced(draft)).toBe(1);
    expect(await releaseExpiredHolds(ctx(null))).toEqual({ released: 0 });
  });

  it('links are counted in the body as its readers get it: character references, reference links and foreign pictures count', async () => {
    offset = 0;
    const sly = await t.createUser({ name: 'Sly' });
    // Before, only addresses spelt out in the Markdown counted: this body had one.
    const disguised = '[a](https&#58;//a.example) and [b][b], ![c](https://c.example/p.png)\n\n[b]: https&#x3A;//b.example';
    const { insertedId } = await createBlog(ctx(sly), blogInput({ title: 'Disguised', long_description: disguised }));
    expect(await getBlog(ctx(sly), insertedId)).toMatchObject({ pending: true });
    await expect(getBlog(ctx(reader), insertedId)).rejects.toMatchObject({ status: 404 });
    // Two links stay within K, however they are written; an uploaded picture is not a link.
    const two = '[a](https&#58;//a.example) <https://b.example> ![own](/uploads/00000000-0000-4000-8000-000000000000-1600.webp)';
    const { insertedId: shown } = await createBlog(ctx(sly), blogInput({ title: 'Two', long_description: two }));
    expect(await getBlog(ctx(reader), shown)).not.toHaveProperty('pending');
    // An edit that disguises a third link makes it wait.
    await updateBlog(ctx(sly), shown, { long_description: `${two} [c](http&#x3a;//c.example)` });
    await expect(getBlog(ctx(reader), shown)).rejects.toMatchObject({ status: 404 });
  });
});

describe.each(TEST_DIALECTS)('trusted accounts on %s', (dialect) => {
  let t: TestApp;
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), spamHold: { days: 3, maxLinks: 2 } });
  // Announcing follows "blog.published" as a job: run what the changes so far queued, then look.
  const announced = async (blogId: string) => {
    await t.runJobs();
    return (await t.deps.database.db.selectFrom('mail_messages').select('id').where('key', '=', `post:${blogId}`).execute()).length;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it("the site's first account is never held, the second is; staff are trusted, and granting a role releases what was held", async () => {
    const owner = await t.createUser({ name: 'Owner' });
    const second = await t.createUser({ name: 'Second' });
    const third = await t.createUser({ name: 'Third' });
    expect(await holdEnd(ctx(null), owner.user.id)).toBeNull();
    expect(await holdEnd(ctx(null), second.user.id)).not.toBeNull();
    expect(await countAccountsWaiting(ctx(null))).toBe(0);

    // The owner's first posts spread at once: announced, with many links or not.
    const { insertedId: first } = await createBlog(ctx(owner), blogInput({ title: 'Welcome', long_description: MANY_LINKS }));
    expect(await getBlog(ctx(null), first)).not.toHaveProperty('pending');
    expect(await announced(first)).toBe(1);

    // The second account writes while held; the third has something waiting.
    const { insertedId: held } = await createBlog(ctx(second), blogInput({ title: 'Before the grant' }));
    await createBlog(ctx(third), blogInput({ title: 'Links', long_description: MANY_LINKS }));
    expect((await getBlogWithAuthor(ctx(null), held)).held).toBe(true);
    expect(await countAccountsWaiting(ctx(null))).toBe(2);

    // `npm run admin -- grant` (the operator) approves the account it names: its blog spreads now.
    await setAdminByOperator(ctx(null), second.user.email, true);
    expect((await getBlogWithAuthor(ctx(null), held)).held).toBe(false);
    expect(await announced(held)).toBe(1);
    expect(await holdEnd(ctx(null), second.user.id)).toBeNull();
    expect(await countAccountsWaiting(ctx(null))).toBe(1);

    // An admin's new moderator is trusted the same way.
    await grantModerator(ctx(second), { email: third.user.email, reason: 'Helps out' });
    expect(await holdEnd(ctx(null), third.user.id)).toBeNull();
    expect(await countAccountsWaiting(ctx(null))).toBe(0);
    expect((await listPendingAndHeld(ctx(second))).pending).toEqual([]);
  });
});
