import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { categorySlug } from '~/features/feeds/feeds.service.server';
import { slugOfTitle } from '~/features/blogs/blogs.service.server';
import type { Cacheability } from '~/lib/render/cacheability';
import { API_READS, type KeptRead, keptReadOf, pageReadsOf } from '../../server/http/middleware/page-cache.server';
import { apiSession, type ApiSession } from '../support/auth';
import { instanceEnv, linkedAuthorId } from '../support/instances';
import { PUBLIC_BLOG } from '../support/public-blog';
import { builtRoutes } from '../support/routes';
import { type RunningServer, startServer } from '../support/server';

/**
 * Every read that declares itself cacheable (docs/decisions/055) answers the same with the page
 * cache on as with it off. Two servers on one database: one keeps anonymous reads, one keeps
 * none (PAGE_CACHE_MB=0). Each read is asked of both before and after writes that move what it
 * shows (a rename, a comment, a like, an edit, a new blog), the kept server answering from its
 * copy where it still may. The writes go through the kept server, whose own reads are strict
 * (another instance on PostgreSQL hears of them a moment later, decision 044). Set aside, as
 * differing per request and per server: the nonce, the request id and the server's address.
 */
describe.each(TEST_DIALECTS)('kept reads equal fresh renders on %s', (dialect) => {
  let scratch: ScratchDatabase;
  let kept: RunningServer;
  let fresh: RunningServer;
  let writer: ApiSession;
  let reader: ApiSession;
  let writerEmail = '';
  let blogId = '';
  let authorId = '';
  /** The request id each kept read was rendered with, from its MISS: a HIT carries those bytes. */
  const renderedWith = new Map<string, string>();
  let pageReads: KeptRead[] = [];

  beforeAll(async () => {
    pageReads = pageReadsOf(await builtRoutes());
    scratch = await createScratchDatabase(dialect);
    const env = instanceEnv(scratch);
    kept = await startServer(env);
    fresh = await startServer({ ...env, PAGE_CACHE_MB: '0' });
    const stamp = Date.now();
    writerEmail = `kept-writer-${stamp}@example.com`;
    writer = await apiSession(kept.url, { email: writerEmail, name: 'Kept Writer' });
    reader = await apiSession(kept.url, { email: `kept-reader-${stamp}@example.com`, name: 'Kept Reader' });
    blogId = await newBlog(PUBLIC_BLOG.title);
    authorId = await linkedAuthorId(`${fresh.url}/blogs/${blogId}`);
    expect(authorId, 'the blog page links its author').not.toBe('');
    await send(reader, 'PATCH', `/api/blogs/${blogId}`, { commentText: 'First light.' });
  });
  afterAll(async () => {
    await kept?.stop();
    await fresh?.stop();
    await scratch?.drop();
  });

  async function send(session: ApiSession, method: string, path: string, body?: unknown) {
    const res = await fetch(`${kept.url}${path}`, {
      method,
      headers: { cookie: session.cookie, origin: kept.url, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    return res;
  }
  async function newBlog(title: string) {
    const res = await send(writer, 'POST', '/api/blogs', { ...PUBLIC_BLOG, title, tags: ['kept-tag'] });
    return ((await res.json()) as { insertedId: string }).insertedId;
  }

  const paths = () => {
    const category = categorySlug(PUBLIC_BLOG.category);
    return [
      '/', '/_root.data', '/allblogs', '/allblogs.data', '/allblogs?search=Personal', '/featuredBlogs', '/featuredBlogs.data', '/recent', '/recent.data',
      '/memoryframe', '/counter', '/newsletter', `/blogs/${blogId}`, `/blogs/${blogId}.data`, `/blogs/${blogId}/${slugOfTitle(PUBLIC_BLOG.title)}`,
      '/tags/kept-tag', '/tags/kept-tag.data', '/tags/kept-tag/feed.xml', '/tags/kept-tag/rss.xml',
      '/feed.xml', '/rss.xml', `/categories/${category}/feed.xml`, `/categories/${category}/rss.xml`, `/authors/${authorId}/feed.xml`, `/authors/${authorId}/rss.xml`,
      '/robots.txt', '/sitemap.xml', '/sitemaps/1.xml',
      '/api/blogs', '/api/blogs?search=Personal', '/api/recent-blog', '/api/featuredblogs', `/api/blogs/${blogId}`, '/api/tags?prefix=kept', '/api/tags/kept-tag/blogs',
    ];
  };

  /** A read's status and body as a reader could compare them: what is per request or per server set aside. */
  async function read(server: RunningServer, path: string) {
    const res = await fetch(`${server.url}${path}`);
    let body = await res.text();
    const state = res.headers.get('x-cache');
    let requestId = res.headers.get('x-request-id') ?? '';
    if (server === kept && state === 'MISS') renderedWith.set(path, requestId);
    if (state === 'HIT') requestId = renderedWith.get(path) ?? requestId;
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    if (nonce) body = body.replaceAll(` nonce="${nonce}"`, '');
    if (requestId) body = body.replaceAll(requestId, 'REQUEST-ID');
    return { status: res.status, state, body: body.replaceAll(server.url, 'ORIGIN') };
  }

  /**
   * Each path (or those `only` keeps) from the kept server (twice: its copy, once kept, must
   * serve) and from the fresh one; what each answered first on the kept server.
   */
  async function compareAll(only: (cache: Cacheability | undefined) => boolean = () => true) {
    const firsts: Record<string, string | null> = {};
    for (const path of paths().filter((p) => only(keptReadOf(pageReads, p.replace(/\?.*$/, ''))?.cache))) {
      const first = await read(kept, path);
      const again = await read(kept, path);
      const plain = await read(fresh, path);
      firsts[path] = first.state;
      expect(plain.state, path).toBeNull();
      if (first.status === 200) expect(again.state, path).toBe('HIT');
      expect({ path, status: first.status, body: first.body }).toEqual({ path, status: plain.status, body: plain.body });
      expect({ path, status: again.status, body: again.body }).toEqual({ path, status: plain.status, body: plain.body });
    }
    return firsts;
  }
  const missedAll = (firsts: Record<string, string | null>) => expect(Object.entries(firsts).filter(([, first]) => first === 'HIT').map(([path]) => path)).toEqual([]);

  it('reads every cacheable page and API read the routes and operations declare', () => {
    const unread = [...pageReads, ...API_READS].filter((kept) => !paths().some((path) => kept.pattern.test(path.replace(/\?.*$/, ''))));
    expect(unread.map((kept) => String(kept.pattern))).toEqual([]);
  });

  it('answers the same from a kept copy as a fresh render, before and after each write that changes what it shows', async () => {
    await compareAll();
    // A new name: on the writer's blog page and JSON, the lists, the feeds.
    await send(writer, 'PATCH', `/api/update/${encodeURIComponent(writerEmail)}`, { name: 'Renamed Writer', photo: null });
    missedAll(await compareAll());
    expect((await read(kept, `/blogs/${blogId}`)).body).toContain('Renamed Writer');
    // A comment and a like show at once on the blog's own reads; lists may show counts up to
    // COUNTS_MAX_AGE_S old (decision 024), so only the blog's reads are held to them here.
    const blogReads = (cache: Cacheability | undefined) => cache === 'blog';
    await send(reader, 'PATCH', `/api/blogs/${blogId}`, { commentText: 'Second look.' });
    missedAll(await compareAll(blogReads));
    await send(reader, 'PATCH', `/api/blogs/liked/${blogId}`);
    missedAll(await compareAll(blogReads));
    // An edit and a new blog move everything that lists blogs.
    await send(writer, 'PUT', `/api/blogs/${blogId}`, { ...PUBLIC_BLOG, title: 'Counted once, retitled' });
    missedAll(await compareAll());
    await newBlog('A second evening');
    const afterNew = await compareAll();
    expect(Object.entries(afterNew).filter(([path, first]) => first === 'HIT' && !path.startsWith('/blogs/') && !path.startsWith('/api/blogs/')).map(([path]) => path)).toEqual([]);
  });
});
