// The page doors of the moderation rules (docs/decisions/028, 048), on the production build: the
// /moderation form follows the same rank rule as the API, a Hidden draft is not moderated there
// either, and the wishlist page reads through the blogs' visibility rule.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, type ApiSession } from '#test/auth';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { type RunningServer, startServer } from '#test/server';

describe.each(TEST_DIALECTS)('moderation at the pages on %s', (dialect) => {
  let server: RunningServer;
  let scratch: ScratchDatabase | undefined;
  let admin: ApiSession;
  let mod: ApiSession;
  let writer: ApiSession;
  let reader: ApiSession;
  const tag = randomUUID().slice(0, 8);
  const blog = { category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'Private words', availability: 'Public', photo: '/uploads/x-1600.webp' };

  const api = (path: string, who: ApiSession | null, init: { method?: string; json?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { origin: server.url, ...(who ? { cookie: who.cookie } : {}), ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  const write = async (who: ApiSession, title: string, availability = 'Public') =>
    ((await (await api('/api/blogs', who, { method: 'POST', json: { ...blog, title, availability } })).json()) as { insertedId: string }).insertedId;
  const form = (path: string, who: ApiSession, fields: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: who.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  beforeAll(async () => {
    scratch = dialect === 'postgres' ? await createScratchDatabase('postgres') : undefined;
    server = await startServer(scratch ? { DATABASE_URL: scratch.env.DATABASE_URL! } : {});
    admin = await apiSession(server.url, { email: `admin-${tag}@example.com`, name: 'Ada Admin' });
    mod = await apiSession(server.url, { email: `mod-${tag}@example.com`, name: 'Mo Mod' });
    writer = await apiSession(server.url, { email: `writer-${tag}@example.com`, name: 'Wren Writer' });
    reader = await apiSession(server.url, { email: `reader-${tag}@example.com`, name: 'Rae Reader' });
    execFileSync(process.execPath, ['scripts/admin.js', 'grant', `admin-${tag}@example.com`], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: scratch?.env.DATABASE_URL ?? '', LOG_LEVEL: 'warn' },
    });
    expect((await api('/api/moderation/moderators', admin, { method: 'POST', json: { email: `mod-${tag}@example.com`, reason: 'Trusted' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  it("the /moderation form refuses a moderator an admin's blog, their own, and a Hidden draft; a writer's it takes", async () => {
    const targets = { admin: await write(admin, 'The admin’s'), own: await write(mod, 'The moderator’s'), draft: await write(writer, 'A draft', 'Hidden'), writer: await write(writer, 'The writer’s') };
    for (const id of [targets.admin, targets.own, targets.draft]) {
      const res = await form('/moderation', mod, { intent: 'hide', targetPath: 'blogs', targetId: id, reason: 'Spam links' });
      expect(res.status).toBe(302);
      await res.arrayBuffer();
    }
    for (const id of [targets.admin, targets.own]) expect((await api(`/api/blogs/${id}`, null)).status).toBe(200);
    expect(await (await api(`/api/blogs/${targets.draft}`, writer)).json()).not.toHaveProperty('removed');
    const removed = await (await api('/moderation', mod)).text();
    expect(removed).not.toContain('A draft');

    await (await form('/moderation', mod, { intent: 'hide', targetPath: 'blogs', targetId: targets.writer, reason: 'Spam links' })).arrayBuffer();
    expect((await api(`/api/blogs/${targets.writer}`, null)).status).toBe(404);
  });

  it('the wishlist page leaves out a blog a moderator removed', async () => {
    const id = await write(writer, `Soon removed ${tag}`);
    expect((await api('/api/wishlist', reader, { method: 'POST', json: { blogId: id } })).status).toBe(201);
    expect(await (await api('/wishlist', reader)).text()).toContain(`Soon removed ${tag}`);
    expect((await api(`/api/moderation/blogs/${id}/hide`, mod, { method: 'POST', json: { reason: 'Spam links' } })).status).toBe(200);
    expect(await (await api('/wishlist', reader)).text()).not.toContain(`Soon removed ${tag}`);
  });
});
