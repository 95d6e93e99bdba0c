import { BodyUnrenderable, renderMarkdown } from '~/features/blogs/blogs.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import * as repo from './exports.repo.server';
import { tagsOfBlogs } from '~/features/tags/tags.service.server';

/**
 * ghost.json: the site in the shape Ghost's importer takes (Settings → Import), so a site can
 * move to Ghost 5 or 6 (docs/decisions/074). What that importer requires, and how it is met:
 *
 * - `{db: [{meta: {exported_on, version}, data: {…}}]}`, `meta.version` a semver string;
 * - a post's body as `mobiledoc` with one markdown card holding our Markdown unchanged (Ghost
 *   turns it into its editor's markdown card), and `html` as our site renders it;
 * - slugs unique in the file (Ghost drops a second post with the same slug);
 * - authors and tags tied to posts through `posts_authors` and `posts_tags`; every user with an
 *   email and a role (`roles`, `roles_users`: Author);
 * - Ghost's column limits: `custom_excerpt` 300 characters, a user's `bio` 200.
 *
 * Our categories become Ghost tags (the post's first, its primary tag), then its own tags.
 */

export const GHOST_VERSION = '5.0.0';
const EXCERPT_MAX = 300;
const BIO_MAX = 200;
const PAGE = 200;
const AUTHOR_ROLE_ID = 'afterglow-role-author';

/** A URL slug: lower-case letters and digits joined by hyphens (accents dropped), at most 180 characters. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 180)
    .replace(/-+$/, '');
  return slug || 'post';
}

const cut = (text: string | null, max: number) => (text && [...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text);

/** A unique slug per text within one file: `title`, `title-2`, … */
function slugMaker() {
  const taken = new Set<string>();
  return (text: string) => {
    const base = slugify(text);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  };
}

export interface GhostOptions {
  siteUrl: string | null;
  exportedAt: Date;
  /** Our own images' addresses (ownImagePattern): made absolute on siteUrl. */
  ownImages: RegExp;
}

/** ghost.json, produced a page of posts at a time. */
export async function* ghostJson(ctx: ServiceContext, options: GhostOptions): AsyncIterable<string> {
  const origin = options.siteUrl ? new URL(options.siteUrl).origin : null;
  const absolute = (url: string) => (origin && url.startsWith('/') ? `${origin}${url}` : url);
  const absoluteImages = (text: string) => (origin ? text.replace(options.ownImages, (whole) => absolute(whole)) : text);
  const absoluteHtml = (html: string) => (origin ? html.replace(/\b(src|href)="\/(?!\/)/g, `$1="${origin}/`) : html);

  const postSlug = slugMaker();
  const tagSlug = slugMaker();
  const tagIds = new Map<string, { id: string; name: string; slug: string }>();
  const tagOf = (name: string) => {
    let tag = tagIds.get(name);
    if (!tag) tagIds.set(name, (tag = { id: `tag-${tagIds.size + 1}`, name, slug: tagSlug(name) }));
    return tag.id;
  };
  const postsTags: { post_id: string; tag_id: string; sort_order: number }[] = [];
  const postsAuthors: { post_id: string; author_id: string; sort_order: number }[] = [];

  yield `{"db":[{"meta":${JSON.stringify({ exported_on: options.exportedAt.getTime(), version: GHOST_VERSION })},"data":{"posts":[`;
  let first = true;
  for (let afterId: string | null = null; ; ) {
    const posts = await repo.postsPage(ctx.db, { ownerId: null, afterId, limit: PAGE });
    if (posts.length === 0) break;
    const tags = await tagsOfBlogs(ctx, posts.map((p) => p.id));
    for (const post of posts) {
      const markdown = absoluteImages(post.long_description);
      let html: string;
      try {
        html = absoluteHtml(await renderMarkdown(post.long_description, { imageBases: ctx.imageBases, remember: false }));
      } catch (error) {
        if (!(error instanceof BodyUnrenderable)) throw error;
        // Ghost renders the markdown card itself; the html is only what it shows until then.
        html = '';
      }
      const published = post.availability === 'Public';
      const item = {
        id: post.id,
        title: post.title,
        slug: postSlug(post.title),
        mobiledoc: JSON.stringify({ version: '0.3.1', ghostVersion: '4.0', atoms: [], cards: [['markdown', { markdown }]], markups: [], sections: [[10, 0]] }),
        html,
        feature_image: post.photo ? absolute(post.photo) : null,
        type: 'post',
        status: published ? 'published' : 'draft',
        visibility: 'public',
        custom_excerpt: cut(post.short_description, EXCERPT_MAX),
        created_at: post.created_at,
        updated_at: post.updated_at,
        published_at: published ? post.created_at : null,
      };
      yield `${first ? '' : ','}${JSON.stringify(item)}`;
      first = false;
      [post.category, ...(tags.get(post.id) ?? [])].forEach((name, i) => postsTags.push({ post_id: post.id, tag_id: tagOf(name), sort_order: i }));
      postsAuthors.push({ post_id: post.id, author_id: post.owner_id, sort_order: 0 });
    }
    afterId = posts.at(-1)!.id;
  }
  const userSlug = slugMaker();
  const users = (await repo.authors(ctx.db, null)).map((a) => ({
    id: a.id,
    name: a.name,
    slug: userSlug(a.name || a.email.split('@')[0]!),
    email: a.email,
    bio: cut(a.bio, BIO_MAX),
    website: a.website,
    profile_image: a.photo ? absolute(a.photo) : null,
    status: 'active',
  }));
  const data = {
    tags: [...tagIds.values()],
    posts_tags: postsTags,
    users,
    posts_authors: postsAuthors,
    roles: [{ id: AUTHOR_ROLE_ID, name: 'Author' }],
    roles_users: users.map((u) => ({ user_id: u.id, role_id: AUTHOR_ROLE_ID })),
  };
  // The rest, after the posts: `],"tags":[…],…}}]}`.
  yield `],${JSON.stringify(data).slice(1)}}]}\n`;
}
