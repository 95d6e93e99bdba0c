import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { photoWithSubject } from '../../../tests/support/images';
import { loadRecentBlogsSection } from '../home/home.service.server';
import { storedImageId, uploadImage } from '../images/images.service.server';
import { readBlogForm, saveBlogForm } from './blog-form.server';
import { createBlog, getBlog, updateBlog } from './blogs.service.server';

const TEXT = { title: 'Portrait', category: 'Personal', type: 'Photo', short_description: 's', long_description: 'l', availability: 'Public' } as const;

/** The Add or Edit blog form as posted without JavaScript: text fields, the file and the focus in one request. */
async function formRequest(fields: Record<string, string>, image?: Buffer): Promise<Request> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (image) form.append('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'a.jpg');
  return new Request('http://afterglow.test/addBlog', { method: 'POST', body: form });
}

describeOnDialects('a photo keeps its subject on %s (decision 040)', (t) => {
  let writer: TestUser;
  beforeAll(async () => {
    writer = await t.createUser();
  });

  async function storedPoint(url: string) {
    return t.deps.database.db.selectFrom('image_focus').select(['focus_x', 'focus_y']).where('image_id', '=', storedImageId(url)!).executeTakeFirstOrThrow();
  }

  it("stores the focal point found at upload; a blog with that photo shows it until the writer chooses, and again after 'auto'", async () => {
    const ctx = t.context(writer.user);
    const { url } = await uploadImage(ctx, await photoWithSubject({ x: 20, y: 25 }));
    const point = await storedPoint(url);
    expect(point.focus_x).toBeLessThan(35);
    expect(point.focus_y).toBeLessThan(40);

    const { insertedId } = await createBlog(ctx, { ...TEXT, photo: url });
    const automatic = { photo_focus: 'auto', photo_position: `${point.focus_x}% ${point.focus_y}%` };
    expect(await getBlog(ctx, insertedId)).toMatchObject(automatic);

    await updateBlog(ctx, insertedId, { photo_focus: 'bottom-right' });
    expect(await getBlog(ctx, insertedId)).toMatchObject({ photo_focus: 'bottom-right', photo_position: '100% 100%' });
    // The cards get it too (the home's recent cards are built apart from All blogs').
    const recent = await loadRecentBlogsSection(t.context(null));
    expect(recent.blogs.find((b) => b._id === insertedId)).toMatchObject({ photo_position: '100% 100%' });
    // An edit that does not mention the focus keeps it.
    await updateBlog(ctx, insertedId, { title: 'Portrait, renamed' });
    expect(await getBlog(ctx, insertedId)).toMatchObject({ photo_focus: 'bottom-right' });
    await updateBlog(ctx, insertedId, { photo_focus: 'auto' });
    expect(await getBlog(ctx, insertedId)).toMatchObject(automatic);
  });

  it('a new photo brings its own point; a photo the pipeline found no point for has none and is shown as before', async () => {
    const ctx = t.context(writer.user);
    const first = await uploadImage(ctx, await photoWithSubject({ x: 20, y: 25 }));
    const second = await uploadImage(ctx, await photoWithSubject({ x: 80, y: 75 }));
    const { insertedId } = await createBlog(ctx, { ...TEXT, photo: first.url });
    await updateBlog(ctx, insertedId, { photo: second.url });
    const point = await storedPoint(second.url);
    expect(point.focus_x).toBeGreaterThan(65);
    expect((await getBlog(ctx, insertedId)).photo_position).toBe(`${point.focus_x}% ${point.focus_y}%`);

    await updateBlog(ctx, insertedId, { photo: '/uploads/elsewhere-1600.webp' });
    expect(await getBlog(ctx, insertedId)).toMatchObject({ photo_focus: 'auto', photo_position: null });
  });

  it("the form (no JavaScript) takes the writer's choice with the file on add, and changes it on edit", async () => {
    const ctx = t.context(writer.user);
    const added = await readBlogForm(ctx, t.deps.config, await formRequest({ ...TEXT, photo_focus: 'top-left' }, await photoWithSubject({ x: 80, y: 70 })), 'add');
    expect(added.ok, JSON.stringify(added)).toBe(true);
    if (!added.ok) return;
    const { insertedId } = await saveBlogForm(ctx, added, (input) => createBlog(ctx, { ...input, photo: input.photo! }));
    expect(await getBlog(ctx, insertedId)).toMatchObject({ photo_focus: 'top-left', photo_position: '0% 0%' });

    const edited = await readBlogForm(ctx, t.deps.config, await formRequest({ ...TEXT, photo_focus: 'auto' }), 'edit');
    expect(edited.ok).toBe(true);
    if (!edited.ok) return;
    await saveBlogForm(ctx, edited, (input) => updateBlog(ctx, insertedId, input));
    const blog = await getBlog(ctx, insertedId);
    const point = await storedPoint(blog.photo!);
    expect(blog).toMatchObject({ photo_focus: 'auto', photo_position: `${point.focus_x}% ${point.focus_y}%` });
    expect(point.focus_x).toBeGreaterThan(60);
  });

  it('the form refuses a focus that is not one of the choices, and stores nothing', async () => {
    const ctx = t.context(writer.user);
    const refused = await readBlogForm(ctx, t.deps.config, await formRequest({ ...TEXT, photo_focus: 'face' }, await photoWithSubject({ x: 50, y: 50 })), 'add');
    expect(refused).toMatchObject({ ok: false, status: 400, data: { errors: { photo_focus: 'Choose where the photo is kept when it is cropped.' } } });
  });
});
