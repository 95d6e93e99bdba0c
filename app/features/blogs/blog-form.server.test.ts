import { existsSync, readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { jpegImage } from '../../../tests/support/images';
import { uploadsDir } from '../images/image-store.server';
import { readBlogForm, saveBlogForm } from './blog-form.server';
import { createBlog } from './blogs.service.server';

/** The Add blog form as posted without JavaScript: text fields and the file in one request. */
async function addBlogRequest(): Promise<Request> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ title: 'Unsaved', category: 'Personal', type: 'written content', short_description: 's', long_description: 'l', availability: 'Public' })) form.append(k, v);
  form.append('image', new Blob([new Uint8Array(await jpegImage(900, 600))], { type: 'image/jpeg' }), 'a.jpg');
  return new Request('http://afterglow.test/addBlog', { method: 'POST', body: form });
}

describeOnDialects('the Add blog form when the database refuses the row (%s)', (t, dialect) => {
  let writer: TestUser;
  beforeAll(async () => {
    writer = await t.createUser();
    // A real refusal from the database itself, the way a full disk or a lost connection refuses.
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_blogs before insert on blogs begin select raise(abort, 'refused by the test'); end`.execute(t.deps.database.db);
    } else {
      await sql`create function refuse_blogs() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(t.deps.database.db);
      await sql`create trigger refuse_blogs before insert on blogs for each row execute function refuse_blogs()`.execute(t.deps.database.db);
    }
  });

  it('stores the image and its focal point, then removes both again when the blog is not saved: no row, no orphan', async () => {
    const ctx = t.context(writer.user);
    const form = await readBlogForm(ctx, t.deps.config, await addBlogRequest(), 'add');
    expect(form.ok).toBe(true);
    if (!form.ok) return;
    expect(form.uploaded).toBe(true);
    expect(readdirSync(uploadsDir(t.deps.config))).toHaveLength(3);
    const focusRows = () => t.deps.database.db.selectFrom('image_focus').select('image_id').execute();
    expect(await focusRows()).toHaveLength(1);
    await expect(saveBlogForm(ctx, form, (input) => createBlog(ctx, { ...input, photo: input.photo! }))).rejects.toThrow(/refused by the test/);
    expect(existsSync(uploadsDir(t.deps.config)) ? readdirSync(uploadsDir(t.deps.config)) : []).toEqual([]);
    expect(await t.deps.database.db.selectFrom('blogs').select('id').execute()).toEqual([]);
    expect(await focusRows()).toEqual([]);
  });
});
