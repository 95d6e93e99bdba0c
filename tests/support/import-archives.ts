import { createHash } from 'node:crypto';
import { jpegImage, pngImage } from './images';
import type { ZipMember } from './archives';

/**
 * Realistic archives of the formats the importer reads, built to their documented layouts with
 * the odd cases people's archives have: missing images, duplicate slugs, emoji, right-to-left
 * text, broken HTML, drafts and members-only posts.
 */

const RTL = 'مرحبا بالعالم، هذه تدوينة عن السفر إلى الصحراء.';
const EMOJI = 'Sunsets 🌅 and coffee ☕️ — a good day';

export interface GhostArchive {
  members: ZipMember[];
  posts: number;
  /** Titles of the published public posts. */
  publicTitles: string[];
}

/** A Ghost 5 export zip: `ghost.json` (with the db wrapper) and `content/images/…`. */
export async function ghostArchive(count: number, options: { wrapper?: boolean; idPrefix?: string } = {}): Promise<GhostArchive> {
  const photo = await jpegImage(800, 500);
  const other = await pngImage(300, 200);
  const posts: Record<string, unknown>[] = [];
  const postsTags: Record<string, unknown>[] = [];
  const postsAuthors: Record<string, unknown>[] = [];
  const publicTitles: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${options.idPrefix ?? ''}ghost-post-${i}`;
    const kind = i % 10;
    const title = kind === 3 ? `${EMOJI} ${i}` : kind === 4 ? `${RTL} ${i}` : `Post number ${i}`;
    const base = {
      id,
      uuid: `uuid-${i}`,
      title,
      // Two posts share a slug (an old duplicate); the second keeps its content, its old path is reported.
      slug: i === 7 ? 'post-number-6' : `post-number-${i}`,
      status: kind === 8 ? 'draft' : 'published',
      visibility: kind === 9 ? 'members' : 'public',
      type: 'post',
      feature_image: kind === 5 ? '__GHOST_URL__/content/images/2020/01/missing.jpg' : kind === 2 ? null : '__GHOST_URL__/content/images/2020/01/cover.jpg',
      custom_excerpt: kind === 1 ? 'A custom excerpt.' : null,
      published_at: new Date(Date.UTC(2019, 0, 1 + i)).toISOString(),
      updated_at: new Date(Date.UTC(2019, 0, 2 + i)).toISOString(),
      created_at: new Date(Date.UTC(2019, 0, 1 + i)).toISOString(),
    };
    if (kind === 6) {
      posts.push({ ...base, html: null, lexical: null, mobiledoc: JSON.stringify({ version: '0.3.1', atoms: [], markups: [['strong']], cards: [['image', { src: '__GHOST_URL__/content/images/2020/01/inline.png', caption: 'Inline' }], ['markdown', { markdown: '## From a markdown card\n\n- one\n- two' }]], sections: [[1, 'p', [[0, [], 0, 'Plain and '], [0, [0], 1, 'bold']]], [10, 0], [10, 1]] }) });
    } else if (kind === 7) {
      posts.push({ ...base, html: null, mobiledoc: null, lexical: JSON.stringify({ root: { type: 'root', children: [{ type: 'heading', tag: 'h2', children: [{ type: 'text', text: 'Lexical heading', format: 0 }] }, { type: 'paragraph', children: [{ type: 'text', text: 'Italic words', format: 2 }] }, { type: 'image', src: '__GHOST_URL__/content/images/2020/01/inline.png', altText: 'alt' }, { type: 'codeblock', code: 'let x = 1;', language: 'js' }] } }) });
    } else {
      const broken = kind === 0 ? '<p>Unclosed <b>bold <i>and italic</p><div><p>stray' : '';
      posts.push({ ...base, html: `<p>Body of ${title}.</p><p><img src="__GHOST_URL__/content/images/2020/01/inline.png" alt="inline"></p>${broken}`, mobiledoc: null, lexical: null });
    }
    postsTags.push({ id: `pt-${i}`, post_id: id, tag_id: i % 3 === 0 ? 'tag-travel' : 'tag-code', sort_order: 0 });
    postsTags.push({ id: `pt2-${i}`, post_id: id, tag_id: 'tag-internal', sort_order: 1 });
    postsAuthors.push({ id: `pa-${i}`, post_id: id, author_id: 'user-1', sort_order: 0 });
    if (base.status === 'published' && base.visibility === 'public') publicTitles.push(title);
  }
  posts.push({ id: 'page-1', title: 'About', slug: 'about', type: 'page', status: 'published', html: '<p>About me</p>' });
  const data = {
    posts,
    tags: [
      { id: 'tag-travel', name: 'Travel', slug: 'travel' },
      { id: 'tag-code', name: 'Programming', slug: 'programming' },
      { id: 'tag-internal', name: '#hash-internal', slug: 'hash-internal' },
    ],
    posts_tags: postsTags,
    users: [{ id: 'user-1', name: 'Gwen Ghost', email: 'gwen@old.example', bio: 'Writes.', profile_image: null }],
    posts_authors: postsAuthors,
  };
  const json = options.wrapper === false ? { meta: { version: '5.0.0' }, data } : { db: [{ meta: { exported_on: 1, version: '5.0.0' }, data }] };
  return {
    members: [
      { name: 'ghost.json', body: JSON.stringify(json) },
      { name: 'content/images/2020/01/cover.jpg', body: photo, store: true },
      { name: 'content/images/2020/01/inline.png', body: other, store: true },
    ],
    posts: count,
    publicTitles,
  };
}

/** A Jekyll site (YAML) beside a Hugo one (TOML, JSON, a page bundle), in a folder as people zip them. */
export async function markdownArchive(count: number): Promise<ZipMember[]> {
  const photo = await jpegImage(640, 400);
  const members: ZipMember[] = [{ name: 'site/assets/img/photo.jpg', body: photo, store: true }];
  for (let i = 0; i < count; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const kind = i % 4;
    const title = kind === 1 ? `${EMOJI} ${i}` : kind === 2 ? `${RTL} ${i}` : `Jekyll post ${i}`;
    members.push({
      name: `site/_posts/2018-03-${day}-jekyll-post-${i}.md`,
      body: `---\ntitle: "${title}"\ndate: 2018-03-${day} 10:00:00 +0000\ncategories: [travel]\ntags: [desert, sand]\n${kind === 3 ? 'published: false\n' : ''}redirect_from:\n  - /old/jekyll-${i}/\n---\nFirst sentence of ${i}. Second sentence.\n\n![photo](/assets/img/photo.jpg)\n${kind === 0 ? '\n![gone](/assets/img/missing.jpg)\n' : ''}`,
    });
  }
  members.push({
    name: 'site/content/posts/toml-post.md',
    body: `+++\ntitle = "TOML post"\ndate = 2021-05-06T07:08:09Z\ntags = ["go", "hugo"]\ncategories = ["Technology"]\naliases = ["/2021/05/toml-post/", "/p/toml"]\nsummary = "A Hugo summary."\n+++\nHugo body with ![photo](../../assets/img/photo.jpg)\n`,
  });
  members.push({ name: 'site/content/posts/json-post.md', body: `{\n  "title": "JSON post",\n  "date": "2021-06-01T00:00:00Z",\n  "draft": true\n}\nJSON front matter body.\n` });
  members.push({ name: 'site/content/posts/bundle/index.md', body: `---\ntitle: Bundle post\ndate: 2021-07-01\n---\nA page bundle ![here](cover.png)\n` });
  members.push({ name: 'site/content/posts/bundle/cover.png', body: await pngImage(200, 100), store: true });
  members.push({ name: 'site/content/posts/broken.md', body: `---\ntitle: [unclosed\n---\nbody` });
  return members;
}

export interface AfterglowExport {
  members: ZipMember[];
  /** Post id → its body exactly as exported. */
  bodies: Record<string, string>;
  imageHash: string;
}

/**
 * An export as the contract describes it (manifest, posts/<id>.md with YAML front matter,
 * images by content hash, comments with their threading), built by hand.
 */
export async function afterglowExport(count: number): Promise<AfterglowExport> {
  const photo = await jpegImage(900, 600);
  const hash = createHash('sha256').update(photo).digest('hex');
  const image = `images/${hash}.jpg`;
  const members: ZipMember[] = [
    { name: 'manifest.json', body: JSON.stringify({ format: 'afterglow-export', version: 1, exportedAt: '2026-11-20T00:00:00.000Z', site: 'https://old.afterglow.example', scope: 'writer' }) },
    { name: image, body: photo, store: true },
    { name: 'authors.json', body: JSON.stringify([{ id: 'author-1', name: 'Ada Export', bio: 'Bio', links: [], photo: null }]) },
  ];
  const bodies: Record<string, string> = {};
  const comments: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const body = `Body ${i} with trailing spaces  \nand a picture:\n\n![sunset](${image})\n\n${i % 2 ? RTL : EMOJI}\n`;
    bodies[id] = body;
    members.push({
      name: `posts/${id}.md`,
      body: `---\nid: ${id}\ntitle: "Exported ${i}"\ncategory: ${i % 2 ? 'Technology' : 'Food & Health'}\ntype: written content\nshort_description: "Short ${i}"\ndetails: null\navailability: ${i === 1 ? 'Hidden' : 'Public'}\nphoto: "${image}"\ncreated_at: "2025-0${(i % 9) + 1}-01T10:00:00.000Z"\nupdated_at: "2025-0${(i % 9) + 1}-02T10:00:00.000Z"\nauthor_id: author-1\ntags: [one, two]\naliases: ["/old/${i}"]\n---\n${body}`,
    });
    comments.push(
      { id: `c-${i}-1`, blog_id: id, parent_id: null, author_id: null, author_name: 'Reader One', text: `Top comment on ${i}`, created_at: '2025-10-01T10:00:00.000Z' },
      { id: `c-${i}-2`, blog_id: id, parent_id: `c-${i}-1`, author_id: 'author-1', author_name: 'Ada Export', text: 'A reply', created_at: '2025-10-01T11:00:00.000Z' },
      { id: `c-${i}-3`, blog_id: id, parent_id: `c-${i}-2`, author_id: null, author_name: 'Reader Two', text: 'A reply to the reply', created_at: '2025-10-01T12:00:00.000Z' },
    );
  }
  members.push({ name: 'comments.json', body: JSON.stringify(comments) });
  return { members, bodies, imageHash: hash };
}
