import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '~/db/schema';
import { apiSession } from '../support/auth';
import { type RunningServer, startServerOn } from '../support/server';

const DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

interface Person {
  email: string;
  name: string;
  token: string;
  cookie: string;
}

/**
 * Emails of others (docs/product.md#emails-of-others, docs/decisions/022): nobody is shown an email address but their own, in
 * any public read — the JSON API, the pages' loader data (`.data`), the HTML, the feeds and the
 * sitemap — fresh or from the page cache. Distinctive addresses are seeded and looked for in the
 * raw bytes of every answer. The same pages show a renamed person under the new name
 * (identity read through the user's id).
 */
describe.each(DIALECTS)('emails only to their owner on %s', (dialect) => {
  let server: RunningServer;
  const people = {} as Record<'writer' | 'commenter' | 'liker' | 'viewer', Person>;
  let blogId = '';
  let commenterBlogId = '';

  const call = async (path: string, init: { method?: string; as?: Person; json?: unknown; cookie?: boolean } = {}) => {
    const headers: Record<string, string> = { origin: server.url };
    if (init.as) {
      if (init.cookie) headers.cookie = init.as.cookie;
      else headers.authorization = `Bearer ${init.as.token}`;
    }
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${server.url}${path}`, { method: init.method ?? 'GET', headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  };
  const ok = async (path: string, init: Parameters<typeof call>[1] = {}) => {
    const res = await call(path, init);
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };

  beforeAll(async () => {
    server = await startServerOn(dialect);
    for (const role of ['writer', 'commenter', 'liker', 'viewer'] as const) {
      const person = { email: `${role}.${dialect}@${role}-privacy.test`, name: `${role[0]!.toUpperCase()}${role.slice(1)} Person` };
      people[role] = { ...person, ...(await apiSession(server.url, person)) };
    }
    const blog = {
      title: 'Quokka harbour at dusk',
      category: 'Travelling & Photography',
      type: 'Photo',
      short_description: 'A quokka watched the boats come in.',
      long_description: '## Quokkas\n\nThe quokka sat on the pier all evening.',
      availability: 'Public',
      photo: '/uploads/x-1600.webp',
    };
    blogId = ((await (await ok('/api/blogs', { method: 'POST', as: people.writer, json: blog })).json()) as { insertedId: string }).insertedId;
    commenterBlogId = ((await (await ok('/api/blogs', { method: 'POST', as: people.commenter, json: { ...blog, title: 'Quokka replies' } })).json()) as { insertedId: string }).insertedId;
    await ok(`/api/blogs/${blogId}`, { method: 'PATCH', as: people.commenter, json: { commentText: 'What a quokka!' } });
    await ok(`/api/blogs/${commenterBlogId}`, { method: 'PATCH', as: people.writer, json: { commentText: 'Thank you, quokka friend.' } });
    await ok(`/api/blogs/liked/${blogId}`, { method: 'PATCH', as: people.liker });
    await ok(`/api/blogs/liked/${commenterBlogId}`, { method: 'PATCH', as: people.writer });
    await ok('/api/wishlist', { method: 'POST', as: people.viewer, json: { blogId, createdAt: new Date().toISOString() } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** Every read anybody may make without being the person, by kind. */
  const publicReads = () => ({
    api: ['/api/blogs', '/api/blogs?limit=100', '/api/blogs?page=2&limit=1', '/api/blogs?q=quokka', '/api/blogs?search=Travelling%20%26%20Photography', '/api/recent-blog', '/api/featuredblogs', `/api/blogs/${blogId}`, `/api/blogs/${commenterBlogId}`],
    'loader data': ['/_root.data', '/allblogs.data', '/allblogs.data?q=quokka', '/featuredBlogs.data', '/recent.data', `/blogs/${blogId}.data`, `/blogs/${commenterBlogId}.data`],
    html: ['/', '/allblogs', '/allblogs?q=quokka', '/featuredBlogs', '/recent', `/blogs/${blogId}`, `/blogs/${commenterBlogId}`],
    feeds: ['/feed.xml', '/rss.xml', '/categories/travelling-photography/feed.xml', '/categories/travelling-photography/rss.xml', '/sitemap.xml'],
  });
  /** A signed-in reader's own pages, which carry other people's blogs and comments. */
  const ownPages = ['/wishList.data', '/profile.data', '/wishList', '/api/blogs/liked/' + 'VIEWER'];

  /** Every way an address can sit in a body: as is, URL-encoded, JSON- or HTML-escaped. */
  const leaks = (body: string, emails: string[]) =>
    emails.filter((email) => {
      const lower = body.toLowerCase();
      const [local, domain] = email.split('@') as [string, string];
      return [email, encodeURIComponent(email), `${local}\\u0040${domain}`, `${local}&#64;${domain}`, `${local}&#x40;${domain}`].some((form) => lower.includes(form.toLowerCase()));
    });

  it('shows nobody an email but their own: API, loader data, HTML and feeds, fresh and cached', async () => {
    const everyone = Object.values(people).map((p) => p.email);
    const found: string[] = [];
    let reads = 0;
    const kinds = new Set<string>();
    const check = async (path: string, as: Person | null, mustNotShow: string[], label: string) => {
      const res = await call(path, as ? { as, cookie: true } : {});
      expect(res.status, `${label} ${path}`).toBe(200);
      const body = await res.text();
      reads++;
      for (const email of leaks(body, mustNotShow)) found.push(`${label} ${path} (${res.headers.get('x-cache') ?? 'no cache'}): ${email}`);
    };
    // The owners look first, so a page cache that kept a signed-in copy would hand it on below.
    await ok(`/blogs/${blogId}.data`, { as: people.writer, cookie: true });
    await ok(`/blogs/${blogId}`, { as: people.commenter, cookie: true });
    for (const [kind, paths] of Object.entries(publicReads())) {
      kinds.add(kind);
      for (const path of paths) {
        // Twice anonymously: the render, then the page cache's copy.
        await check(path, null, everyone, 'anonymous');
        await check(path, null, everyone, 'anonymous again');
        await check(path, people.viewer, everyone.filter((e) => e !== people.viewer.email), 'another user');
      }
    }
    for (const path of ownPages) {
      await check(path.replace('VIEWER', encodeURIComponent(people.viewer.email)), people.viewer, everyone.filter((e) => e !== people.viewer.email), 'own page');
    }
    const publicCount = Object.values(publicReads()).flat().length;
    console.log(`privacy (${dialect}): ${found.length} emails / ${publicCount} public reads (${[...kinds].join(', ')}) × anonymous, cached and another user, + ${ownPages.length} own pages; ${reads} answers read`);
    expect(found).toEqual([]);
  });

  it('still shows each owner their own email, and says isOwner / isMine', async () => {
    const checks: [string, boolean][] = [];
    const blogAs = async (who: Person) => (await (await ok(`/api/blogs/${blogId}`, { as: who })).json()) as { email?: string; isOwner: boolean; likedBy: string[]; comments: { userEmail?: string; isMine: boolean }[] };
    const asWriter = await blogAs(people.writer);
    checks.push(['blog owner: email in the API', asWriter.email === people.writer.email && asWriter.isOwner]);
    const asCommenter = await blogAs(people.commenter);
    checks.push(['commenter: userEmail in the API', asCommenter.comments[0]?.userEmail === people.commenter.email && asCommenter.comments[0]?.isMine === true && !asCommenter.isOwner && asCommenter.email === undefined]);
    const asLiker = await blogAs(people.liker);
    checks.push(['liker: likedBy in the API', asLiker.likedBy.length === 1 && asLiker.likedBy[0] === people.liker.email]);
    const loader = await (await ok(`/blogs/${blogId}.data`, { as: people.writer, cookie: true })).text();
    checks.push(['blog owner: email in the loader data', loader.includes(people.writer.email) && leaks(loader, [people.commenter.email, people.liker.email, people.viewer.email]).length === 0]);
    const seen = checks.filter(([, passed]) => passed).length;
    console.log(`privacy (${dialect}): owners see their own on ${seen} of ${checks.length}`);
    expect(checks.filter(([, passed]) => !passed).map(([name]) => name)).toEqual([]);
  });

  it('shows a renamed person under the new name on old blogs and comments, cached pages included', async () => {
    const read = async () => [
      await (await ok(`/api/blogs/${blogId}`)).text(),
      await (await ok(`/blogs/${blogId}`)).text(),
      await (await ok(`/blogs/${commenterBlogId}`)).text(),
      await (await ok('/featuredBlogs')).text(),
      await (await ok('/feed.xml')).text(),
    ];
    const before = await read();
    expect(before.join('\n')).toContain('Writer Person');
    await read(); // now every one of them is a page-cache copy
    await ok(`/api/update/${encodeURIComponent(people.writer.email)}`, { method: 'PATCH', as: people.writer, json: { name: 'Wren Renamed' } });
    await ok(`/api/update/${encodeURIComponent(people.commenter.email)}`, { method: 'PATCH', as: people.commenter, json: { name: 'Cleo Renamed' } });
    const after = await read();
    const stale = after.filter((body) => body.includes('Writer Person') || body.includes('Commenter Person')).length;
    const blog = JSON.parse(after[0]!) as { name: string; comments: { userName: string }[] };
    console.log(`identity (${dialect}): ${stale} of ${after.length} reads show an old name after a rename`);
    expect(blog.name).toBe('Wren Renamed');
    expect(blog.comments.map((c) => c.userName)).toEqual(['Cleo Renamed']);
    expect(after[1]).toContain('Wren Renamed');
    expect(after[1]).toContain('Cleo Renamed');
    expect(after[2]).toContain('Wren Renamed');
    expect(stale).toBe(0);
  });
});
