import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession, type ApiSession } from '../support/auth';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '../support/databases';
import { eventually } from '../support/eventually';
import { PUBLIC_BLOG } from '../support/public-blog';
import { type RunningServer, startServer } from '../support/server';

/**
 * The pages as served: every link they make to a post is its readable address, after a rename
 * the new one (docs/decisions/069, 092), never the bare `/blogs/{id}`. On each database.
 */
describe.each(TEST_DIALECTS)('links to a post, as the pages serve them, on %s', (dialect) => {
  let server: RunningServer;
  let scratch: ScratchDatabase | null = null;
  let env: Record<string, string> = {};

  beforeAll(async () => {
    scratch = dialect === 'postgres' ? await createScratchDatabase('postgres') : null;
    env = scratch ? { DATABASE_URL: scratch.env.DATABASE_URL! } : {};
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  const call = async (session: ApiSession, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { cookie: session.cookie, origin: server.url, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const page = async (session: ApiSession, path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie: session.cookie } });
    expect(res.status, path).toBe(200);
    return res.text();
  };
  /** The addresses of a page's links into the post `id`, its history and threads aside. */
  const linksTo = (html: string, id: string) =>
    [...html.matchAll(/href="(\/blogs\/[^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&')).filter((href) => href.startsWith(`/blogs/${id}`) && !/\/(history|comments\/)/.test(href));

  it('notifications, the wishlist, the moderation screen, the numbers, the history and a thread', async () => {
    const [writer, reader, admin] = await Promise.all(
      ['Wanda Writer', 'Rudi Reader', 'Ada Admin'].map((name, i) => apiSession(server.url, { email: `links-${i}-${Date.now()}@example.com`, name })),
    );
    const adminEmail = (await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: admin!.cookie } })).json() as { user: { email: string } }).user.email;
    execFileSync(process.execPath, ['scripts/admin.js', 'grant', adminEmail], { env: { ...process.env, DATA_DIR: server.dataDir, ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8' });

    const { insertedId: id } = (await call(writer!, 'POST', '/api/blogs', { ...PUBLIC_BLOG, title: 'Evening light' })) as { insertedId: string };
    await call(reader!, 'POST', '/api/wishlist', { blogId: id, title: '', photo: null, email: '', category: '', likeCount: 0, description: '' });
    await call(reader!, 'POST', '/api/reports', { targetType: 'blog', targetId: id, reason: 'Spam' });
    await call(writer!, 'PUT', `/api/blogs/${id}`, { ...PUBLIC_BLOG, title: 'Evening light, again' });
    const canonical = `/blogs/${id}/evening-light-again`;
    await call(reader!, 'PATCH', `/api/blogs/${id}`, { commentText: 'Lovely.' });
    const commentId = ((await call(reader!, 'GET', `/api/blogs/${id}`)) as { comments: { _id: string }[] }).comments[0]!._id;

    // The comment's notification comes from the job runner, a moment later.
    let notices: string[] = [];
    await eventually('the comment notification', async () => (notices = linksTo(await page(writer!, '/notifications'), id)).length > 0);
    expect(notices).toEqual([`${canonical}#comment-${commentId}`]);
    expect(linksTo(await page(reader!, '/wishlist'), id)).toEqual([canonical]);
    expect(linksTo(await page(writer!, '/profile/stats'), id)).toEqual([canonical]);
    expect(linksTo(await page(writer!, `/blogs/${id}/history`), id)).toEqual([canonical]);
    expect(linksTo(await page(reader!, `/blogs/${id}/comments/${commentId}`), id)).toEqual([`${canonical}#comments`]);

    await call(admin!, 'POST', `/api/moderation/comments/${commentId}/hide`, { reason: 'Off topic' });
    const moderation = linksTo(await page(admin!, '/moderation'), id);
    // The queue's report, the removed comment, and the log's line about it.
    expect(moderation.sort()).toEqual([canonical, canonical, `${canonical}#comments`].sort());
  });
});
