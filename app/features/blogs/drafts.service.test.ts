import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { blogInput } from '#test/blog-inputs';
import type { ServiceContext } from '~/lib/core/service-context';
import type { TestUser } from '#test/test-app';
import { getBlog, listBlogs, listPublicBlogRefs, updateBlog } from './blogs.service.server';
import { cancelSchedule, discardDraft, getDraft, getDraftOfBlog, getLatestNewDraft, listOwnDrafts, saveDraft, scheduleDraft } from './drafts.service.server';
import { compareRevisions, listRevisions, restoreRevision } from './revisions.service.server';
import { createBlog } from './blogs.service.server';
import { REVISIONS_KEPT } from './blogs.constants';
import { countRevisions, insertRevision } from './drafts.repo.server';

/** The writer's desk (docs/decisions/070): drafts on the server, scheduling and a post's versions. */
describeOnDialects('drafts, scheduling and revisions on %s', (t) => {
  let writer: TestUser;
  let other: TestUser;
  let at = Date.parse('2026-11-26T08:00:00.000Z');
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), now: () => new Date((at += 1_000)) });
  const published = async (key: string) =>
    (await t.deps.database.db.selectFrom('jobs').select('id').where('kind', '=', 'event').where('payload', 'like', '%"blog.published"%').where('payload', 'like', `%${key}%`).execute()).length;

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Dora Drafter' });
    other = await t.createUser();
  });

  it('keeps an incomplete draft for its writer alone, never as a blog', async () => {
    const id = randomUUID();
    await saveDraft(ctx(writer), id, { title: 'Half a story', long_description: 'It started on the pier. ![](/uploads/11111111-1111-4111-8111-111111111111-800.webp)' });
    await saveDraft(ctx(writer), id, { category: 'Personal', photo: '/uploads/22222222-2222-4222-8222-222222222222-1600.webp' });
    const draft = await getDraft(ctx(writer), id);
    expect(draft).toMatchObject({ id, blogId: null, publishAt: null, photo: '/uploads/22222222-2222-4222-8222-222222222222-1600.webp' });
    expect(draft.values).toMatchObject({ title: 'Half a story', category: 'Personal', type: '', short_description: '' });
    expect((await getLatestNewDraft(ctx(writer)))?.id).toBe(id);
    expect((await listOwnDrafts(ctx(writer))).map((d) => d.id)).toContain(id);

    // Someone else neither reads nor overwrites it; it is in no list, feed or sitemap, and no event went out.
    await expect(getDraft(ctx(other), id)).rejects.toMatchObject({ status: 404 });
    await expect(saveDraft(ctx(other), id, { title: 'Mine now' })).rejects.toMatchObject({ status: 404 });
    expect(await getLatestNewDraft(ctx(other))).toBeNull();
    expect((await listBlogs(ctx(writer), { page: 1, limit: 50 })).blogs.map((b) => b.title)).not.toContain('Half a story');
    expect((await listPublicBlogRefs(ctx(null), { offset: 0, limit: 100 })).refs.map((r) => r.id)).not.toContain(id);
    await expect(getBlog(ctx(writer), id)).rejects.toMatchObject({ status: 404 });
    expect(await published(id)).toBe(0);

    // Its pictures are referenced, so the upload sweep keeps them.
    const { referencedImageUrls } = await import('~/features/images/images.repo.server');
    const referenced = (await referencedImageUrls(t.deps.database.db)).join(' ');
    expect(referenced).toContain('11111111-1111-4111-8111-111111111111-800.webp');
    expect(referenced).toContain('22222222-2222-4222-8222-222222222222-1600.webp');

    await expect(discardDraft(ctx(other), id)).rejects.toMatchObject({ status: 404 });
    expect(await discardDraft(ctx(writer), id)).toEqual({ deletedCount: 1 });
  });

  it('keeps one draft per published post, whichever id the browser sent', async () => {
    const { insertedId } = await createBlog(ctx(writer), blogInput({ title: 'Out there' }));
    const first = await saveDraft(ctx(writer), randomUUID(), { blogId: insertedId, title: 'Out there, revised' });
    const second = await saveDraft(ctx(writer), randomUUID(), { blogId: insertedId, title: 'Out there, revised again' });
    expect(second.id).toBe(first.id);
    expect((await getDraftOfBlog(ctx(writer), insertedId))?.values.title).toBe('Out there, revised again');
    // The post reads as published until the edit is saved.
    expect((await getBlog(ctx(null), insertedId)).title).toBe('Out there');
    await expect(saveDraft(ctx(other), randomUUID(), { blogId: insertedId, title: 'x' })).rejects.toMatchObject({ status: 403 });
  });

  it('publishes a scheduled post once, at its time, and not a cancelled one', async () => {
    const id = randomUUID();
    const input = { ...blogInput({ title: 'Scheduled sunrise' }), publish_at: new Date(at + 3_600_000).toISOString() };
    await expect(scheduleDraft(ctx(writer), id, { ...input, publish_at: new Date(at - 60_000).toISOString() })).rejects.toMatchObject({ status: 400, field: 'publish_at' });
    const { publishAt } = await scheduleDraft(ctx(writer), id, input);
    // Changed before its time: the new text goes out, and asking again makes no second job.
    await saveDraft(ctx(writer), id, { title: 'Scheduled sunrise, edited', tags: 'dawn, Night sky' });
    expect((await getDraft(ctx(writer), id)).values.tags).toBe('dawn, Night sky');
    await scheduleDraft(ctx(writer), id, { ...input, title: 'Scheduled sunrise, edited', tags: ['dawn', 'Night-sky'] });
    // Not yet.
    await t.runJobs(new Date(Date.parse(publishAt) - 60_000));
    await expect(getBlog(ctx(writer), id)).rejects.toMatchObject({ status: 404 });
    expect((await getDraft(ctx(writer), id)).publishAt).toBe(publishAt);

    await t.runJobs(new Date(Date.parse(publishAt) + 1_000));
    expect(await getBlog(ctx(null), id)).toMatchObject({ title: 'Scheduled sunrise, edited', availability: 'Public', tags: ['dawn', 'Night-sky'] });
    await expect(getDraft(ctx(writer), id)).rejects.toMatchObject({ status: 404 });
    expect(await published(id)).toBe(1);

    const cancelled = randomUUID();
    const later = await scheduleDraft(ctx(writer), cancelled, { ...input, title: 'Never mind' });
    expect(await cancelSchedule(ctx(writer), cancelled)).toEqual({ modifiedCount: 1 });
    await t.runJobs(new Date(Date.parse(later.publishAt) + 1_000));
    await expect(getBlog(ctx(writer), cancelled)).rejects.toMatchObject({ status: 404 });
    expect(await getDraft(ctx(writer), cancelled)).toMatchObject({ publishAt: null, values: { title: 'Never mind' } });
  });

  it('keeps a version at every save, compares two and restores one', async () => {
    const { insertedId } = await createBlog(ctx(writer), blogInput({ title: 'First light', long_description: 'The sea was grey.' }));
    await updateBlog(ctx(writer), insertedId, { title: 'Second light', long_description: 'The sea was green.' });
    await updateBlog(ctx(writer), insertedId, { title: 'Third light' });
    const { revisions } = await listRevisions(ctx(writer), insertedId);
    expect(revisions.map((r) => r.title)).toEqual(['Third light', 'Second light', 'First light']);
    await expect(listRevisions(ctx(other), insertedId)).rejects.toMatchObject({ status: 403 });

    const diff = await compareRevisions(ctx(writer), insertedId, revisions[1]!.id, revisions[2]!.id);
    expect(diff.older.title).toBe('First light');
    const body = diff.fields.find((f) => f.field === 'long_description')!;
    expect(body.parts.filter((p) => p.removed).map((p) => p.value)).toEqual(['grey']);
    expect(body.parts.filter((p) => p.added).map((p) => p.value)).toEqual(['green']);

    await restoreRevision(ctx(writer), insertedId, revisions[2]!.id);
    expect(await getBlog(ctx(null), insertedId)).toMatchObject({ title: 'First light', long_description: 'The sea was grey.' });
    expect((await listRevisions(ctx(writer), insertedId)).revisions).toHaveLength(4);
    await expect(restoreRevision(ctx(other), insertedId, revisions[2]!.id)).rejects.toMatchObject({ status: 403 });
  });

  it('keeps the newest versions only: a save drops what falls beyond them', async () => {
    const { insertedId } = await createBlog(ctx(writer), blogInput({ title: 'Version 0' }));
    const db = t.deps.database.db;
    // The first save's version and 99 more, a second apart, all before the next save.
    const since = Date.now() - 86_400_000;
    const first = await db.selectFrom('blog_revisions').selectAll().where('blog_id', '=', insertedId).executeTakeFirstOrThrow();
    await db.updateTable('blog_revisions').set({ created_at: new Date(since).toISOString() }).where('id', '=', first.id).execute();
    for (let n = 1; n < REVISIONS_KEPT; n++) {
      await insertRevision(db, { ...first, id: randomUUID(), title: `Version ${n}`, created_at: new Date(since + n * 1_000).toISOString() });
    }
    expect(await countRevisions(db, insertedId)).toBe(REVISIONS_KEPT);
    await updateBlog(ctx(writer), insertedId, { title: 'Newest' });
    const { revisions } = await listRevisions(ctx(writer), insertedId);
    expect(revisions).toHaveLength(REVISIONS_KEPT);
    expect(revisions[0]!.title).toBe('Newest');
    expect(revisions.map((r) => r.title)).not.toContain('Version 0');
    expect(revisions.at(-1)!.title).toBe('Version 1');
  });
});
