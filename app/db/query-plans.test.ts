import { type CompiledQuery, type Kysely, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestApp, TestUser } from '#test/test-app';
import { readContentVersions } from '~/db/content-version.server';
import { addComment, createBlog, getBlog, likeBlog, listBlogs, listFeaturedBlogs, listLikedBlogs, listRecentBlogs } from '~/features/blogs/blogs.service.server';
import { addToWishlist, listWishlist, listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import type { Database, DialectName } from './schema';

/** Records every query a piece of code runs, compiled, so its plan can be asked for. */
function recorder(t: TestApp) {
  const queries: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      queries.push(t.deps.database.db.getExecutor().compileQuery(node as RootOperationNode, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: t.deps.database.db.withPlugin(plugin), queries };
}

/** The plan as text: SQLite's EXPLAIN QUERY PLAN lines, or PostgreSQL's plan lines. */
async function planOf(db: Kysely<Database>, dialect: DialectName, query: CompiledQuery): Promise<string> {
  const explain = dialect === 'sqlite' ? 'explain query plan' : 'explain (format text)';
  const result = await db.executeQuery<Record<string, string>>({ ...query, sql: `${explain} ${query.sql}` });
  return result.rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
}

/**
 * Every hot read is served by an index, in both dialects — no full scan of a table that
 * grows, no sort of all its rows. Asked of the real service functions, so a query added later is
 * checked too. PostgreSQL prefers a sequential scan on tables this small, so the check runs with
 * sequential scans and explicit sorts priced out: it asks whether an index *can* serve the query.
 */
describeOnDialects('query plans on %s', (t, dialect) => {
  let owner: TestUser;
  let reader: TestUser;
  let blogId = '';

  beforeAll(async () => {
    owner = await t.createUser();
    reader = await t.createUser();
    const ctx = t.context(owner.user);
    for (let i = 0; i < 30; i++) {
      const { insertedId } = await createBlog(ctx, {
        title: `Evening ${i}`,
        category: i % 2 ? 'Technology' : 'Personal',
        type: 'Mini blog',
        short_description: 'Short.',
        long_description: 'Long.',
        availability: i % 5 === 0 ? 'Hidden' : 'Public',
        photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
      });
      if (i === 1) blogId = insertedId;
    }
    await likeBlog(t.context(reader.user), blogId);
    await addComment(t.context(reader.user), blogId, { commentText: 'Lovely.' });
    await addToWishlist(t.context(reader.user), { blogId, source: 'home' });
    if (dialect === 'postgres') await sql`analyze`.execute(t.deps.database.db);
  });

  const reads: [string, (ctx: ServiceContext) => Promise<unknown>][] = [
    ['all blogs, anonymous', (ctx) => listBlogs({ ...ctx, user: null }, { page: 2, limit: 12, search: undefined })],
    ['all blogs in a category, anonymous', (ctx) => listBlogs({ ...ctx, user: null }, { page: 1, limit: 12, search: 'Technology' })],
    ['all blogs, signed in (own Hidden too)', (ctx) => listBlogs(ctx, { page: 2, limit: 12, search: undefined })],
    ['all blogs in a category, signed in', (ctx) => listBlogs(ctx, { page: 1, limit: 12, search: 'Technology' })],
    ['recent blogs', (ctx) => listRecentBlogs(ctx)],
    ['featured blogs', (ctx) => listFeaturedBlogs(ctx)],
    ['a blog with its comments and like state', (ctx) => getBlog(ctx, blogId)],
    ['liked blogs', (ctx) => listLikedBlogs(ctx, ctx.user!.email, { page: 1, limit: 12 })],
    ['wishlist page', (ctx) => listWishlist(ctx, { email: ctx.user!.email, page: 1, limit: 12 })],
    ['wishlist ids', (ctx) => listWishlistBlogIds(ctx)],
    ['content versions (page cache)', (ctx) => readContentVersions(ctx.db)],
  ];

  it.each(reads)('%s: every query is served by an index', async (_name, read) => {
    const { db, queries } = recorder(t);
    await read({ ...t.context(reader.user), db });
    expect(queries.length).toBeGreaterThan(0);
    await t.deps.database.db.connection().execute(async (conn) => {
      if (dialect === 'postgres') await sql`set enable_seqscan = off`.execute(conn);
      if (dialect === 'postgres') await sql`set enable_sort = off`.execute(conn);
      for (const query of queries) {
        const plan = await planOf(conn, dialect, query);
        // content_version_stripes has a fixed few rows (3 scopes × 16 stripes at most): scanning it is reading it.
        const growing = plan.replace(/^.*content_version_stripes.*$/gm, '');
        if (dialect === 'sqlite') {
          expect(growing, `${query.sql}\n${plan}`).not.toMatch(/^SCAN (?!CONSTANT)/m);
          expect(growing, `${query.sql}\n${plan}`).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
        } else {
          expect(growing, `${query.sql}\n${plan}`).not.toMatch(/Seq Scan on (?!content_version_stripes)/);
          // A sort of a handful of rows fetched by key (one user's likes) is fine; a sort of a
          // whole table is not, and with enable_sort off the planner only sorts when it must.
          expect(growing, `${query.sql}\n${plan}`).not.toMatch(/Sort .*\n.*Seq Scan/);
        }
      }
      if (dialect === 'postgres') await sql`reset all`.execute(conn);
    });
  });
});
