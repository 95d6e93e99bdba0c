import { entriesOf } from '../archive.server';
import { htmlToMarkdown } from '../html-to-markdown.server';
import { type ArchiveEntries, ArchiveRefused, type ImportAuthor, type ImportBundle, type ImportPost } from '../import-model';
import { imageTargets, locateImage, MISSING_IMAGE, sitePath } from '../markdown-images';
import { renderLexical, renderMobiledoc, restoreMarkdownCards } from './ghost-cards.server';
import { findGhostMembers, readGhostMembers } from './ghost-members.server';

/**
 * Ghost's JSON export (Settings → Labs → Export), with or without its `{"db":[…]}` wrapper, alone
 * or in a zip beside its `content/images/` folder (docs/decisions/072). Pages are left out; a body
 * comes from `html` when the export has it, else from `mobiledoc` or `lexical` rendered here. The
 * members export, a CSV Ghost makes apart, comes along when it is in the zip too (090).
 */

type Row = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const GHOST_URL = /__GHOST_URL__/g;

/** The JSON file of an archive that looks like a Ghost export, or null. */
export function findGhostJson(files: string[]): string | null {
  return files.find((name) => /\.json$/i.test(name) && !name.includes('/')) ?? files.find((name) => /\.json$/i.test(name)) ?? null;
}

function ghostData(json: unknown): { meta: Row; data: Row } | null {
  if (!json || typeof json !== 'object') return null;
  const root = json as Row;
  const inner = Array.isArray(root.db) ? (root.db[0] as Row | undefined) : root;
  if (!inner || typeof inner !== 'object') return null;
  const data = (inner.data ?? inner) as Row;
  if (!Array.isArray(data.posts)) return null;
  return { meta: (inner.meta ?? {}) as Row, data };
}

/** Whether bytes parse as a Ghost export (used to tell formats apart). */
export function isGhostExport(json: unknown): boolean {
  return ghostData(json) !== null;
}

function bodyHtml(post: Row, blocks: string[]): string | null {
  const html = str(post.html);
  if (html) return html;
  const mobiledoc = str(post.mobiledoc);
  if (mobiledoc) return renderMobiledoc(JSON.parse(mobiledoc), blocks);
  const lexical = str(post.lexical);
  if (lexical) return renderLexical(JSON.parse(lexical), blocks);
  return null;
}

export async function readGhost(input: ArchiveEntries | Buffer, options: { siteUrl?: string | null } = {}): Promise<ImportBundle> {
  const entries = Buffer.isBuffer(input) ? entriesOf({ 'ghost.json': input }) : input;
  const files = entries.list();
  const jsonName = findGhostJson(files);
  if (!jsonName) throw new ArchiveRefused('The archive holds no Ghost JSON export.');
  let parsed: unknown;
  try {
    parsed = JSON.parse((await entries.read(jsonName)).toString('utf8'));
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    throw new ArchiveRefused(`${jsonName} is not valid JSON (${(error as Error).message}).`);
  }
  const ghost = ghostData(parsed);
  if (!ghost) throw new ArchiveRefused(`${jsonName} is not a Ghost export: it has no posts.`);
  const { data } = ghost;
  const rows = (name: string): Row[] => (Array.isArray(data[name]) ? (data[name] as Row[]) : []);
  const siteUrl = options.siteUrl ?? null;
  // Ghost names its own images by the placeholder; inside the archive they sit at the same path.
  const site = siteUrl ?? '';
  const fileSet = new Set(files);
  const root = jsonName.includes('/') ? jsonName.slice(0, jsonName.lastIndexOf('/') + 1) : '';
  const candidates = (target: string) => {
    const local = sitePath(target.replace(GHOST_URL, ''), siteUrl);
    return local ? [local, `${root}${local}`] : [];
  };

  const tags = new Map(rows('tags').map((tag) => [String(tag.id), tag]));
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of rows('posts_tags')) {
    const tag = tags.get(String(link.tag_id));
    const name = tag && str(tag.name);
    if (!name || name.startsWith('#')) continue; // internal tags steer themes, they are not topics
    const list = tagsOf.get(String(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? list.length) });
    tagsOf.set(String(link.post_id), list);
  }
  const authorOf = new Map<string, { id: string; order: number }>();
  for (const link of rows('posts_authors')) {
    const order = Number(link.sort_order ?? 0);
    const current = authorOf.get(String(link.post_id));
    if (!current || order < current.order) authorOf.set(String(link.post_id), { id: String(link.author_id), order });
  }

  const authors: ImportAuthor[] = rows('users').map((user) => {
    const avatar = str(user.profile_image);
    return {
      sourceId: String(user.id),
      name: str(user.name) ?? str(user.slug) ?? 'Unknown author',
      email: str(user.email),
      bio: str(user.bio),
      avatar: avatar ? locateImage(avatar.replace(GHOST_URL, site), fileSet, candidates, siteUrl) : null,
    };
  });

  // Ghost keeps its site's title among its settings rows (`{ key: 'title', value }`).
  const siteTitle = str(rows('settings').find((row) => row.key === 'title')?.value);
  const bundle: ImportBundle = { source: 'ghost', siteUrl, siteTitle, authors, posts: [], subscribers: [], skipped: [] };
  for (const post of rows('posts')) {
    const id = String(post.id ?? '');
    const title = str(post.title) ?? '';
    const label = title || id || 'a post without an id';
    if (!id) {
      bundle.skipped.push({ item: label, reason: 'it has no id' });
      continue;
    }
    if (post.type === 'page') continue;
    let html: string | null;
    const blocks: string[] = [];
    try {
      html = bodyHtml(post, blocks);
    } catch (error) {
      bundle.skipped.push({ item: label, reason: `its body could not be read (${(error as Error).message})` });
      continue;
    }
    const markdown = restoreMarkdownCards(htmlToMarkdown((html ?? '').replace(GHOST_URL, site), siteUrl), blocks).replace(GHOST_URL, site);
    const images: ImportPost['images'] = [];
    for (const target of imageTargets(markdown)) {
      const ref = locateImage(target, fileSet, candidates, siteUrl);
      if (ref) images.push({ ref, inMarkdown: target });
      else bundle.skipped.push({ item: `${label}: image ${target.slice(0, 300)}`, reason: MISSING_IMAGE });
    }
    const feature = str(post.feature_image);
    const cover = feature ? locateImage(feature.replace(GHOST_URL, site), fileSet, candidates, siteUrl) : null;
    if (feature && !cover) bundle.skipped.push({ item: `${label}: cover ${feature.replace(GHOST_URL, site).slice(0, 300)}`, reason: MISSING_IMAGE });
    const postTags = (tagsOf.get(id) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name);
    const visibility = post.visibility === 'members' ? 'members' : post.visibility === 'paid' || post.visibility === 'tiers' ? 'paid' : 'public';
    const slug = str(post.slug);
    bundle.posts.push({
      sourceId: id,
      authorSourceId: authorOf.get(id)?.id ?? str(post.author_id) ?? null,
      title,
      markdown,
      summary: str(post.custom_excerpt) ?? str(post.excerpt) ?? str(post.meta_description),
      status: post.status === 'published' ? 'published' : 'draft',
      visibility,
      publishedAt: str(post.published_at),
      updatedAt: str(post.updated_at),
      // Ghost has no categories: its primary (first) tag plays that part.
      categories: postTags.slice(0, 1),
      tags: postTags,
      cover,
      images,
      oldPaths: slug ? [`/${slug}/`] : [],
      comments: [],
    });
  }
  bundle.subscribers = await readGhostMembers(entries, await findGhostMembers(entries), bundle.skipped);
  return bundle;
}
