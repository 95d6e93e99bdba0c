import { type ArchiveEntries, ArchiveRefused, type ImportBundle, type ImportComment, type ImportPost } from '../import-model';
import { readPostFile } from './front-matter.server';

/**
 * Our own export read back (docs/decisions/072): `manifest.json`, `posts/<id>.md` (YAML front
 * matter, then the body's Markdown byte for byte), `images/<sha256>.<ext>`, `comments.json`,
 * `authors.json`, and a writer's `remote-follows.json` (accounts elsewhere, followed again). A Hidden post comes back as a draft (Hidden again); its old address on the
 * other instance (`/blogs/<id>`) joins its old paths.
 */

type Row = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : value instanceof Date ? value.toISOString() : null);

async function json(entries: ArchiveEntries, name: string): Promise<Row[]> {
  if (!entries.list().includes(name)) return [];
  try {
    const value = JSON.parse((await entries.read(name)).toString('utf8'));
    return Array.isArray(value) ? value : [];
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    throw new ArchiveRefused(`${name} is not valid JSON (${(error as Error).message}).`);
  }
}

/** Whether the archive is one of our exports. */
export async function isAfterglowExport(entries: ArchiveEntries): Promise<boolean> {
  if (!entries.list().includes('manifest.json')) return false;
  try {
    return JSON.parse((await entries.read('manifest.json')).toString('utf8')).format === 'afterglow-export';
  } catch {
    return false;
  }
}

export async function readAfterglow(entries: ArchiveEntries): Promise<ImportBundle> {
  if (!(await isAfterglowExport(entries))) throw new ArchiveRefused('The archive has no afterglow-export manifest.json.');
  const manifest = JSON.parse((await entries.read('manifest.json')).toString('utf8')) as Row;
  if (manifest.version !== 1) throw new ArchiveRefused(`This export's version (${String(manifest.version)}) is newer than this site reads.`);
  const files = new Set(entries.list());
  const bundle: ImportBundle = { source: 'afterglow', siteUrl: str(manifest.site), authors: [], posts: [], subscribers: [], skipped: [] };

  bundle.authors = (await json(entries, 'authors.json')).map((author) => {
    const photo = str(author.photo);
    return {
      sourceId: String(author.id),
      name: str(author.name) ?? 'Unknown author',
      email: null,
      bio: str(author.bio),
      avatar: photo ? (files.has(photo) ? { kind: 'archive', path: photo } : /^https?:/.test(photo) ? { kind: 'url', url: photo } : null) : null,
    };
  });

  for (const follow of await json(entries, 'remote-follows.json')) {
    const actorUri = str(follow.actor_uri);
    if (actorUri && /^https?:\/\//i.test(actorUri) && URL.canParse(actorUri) && actorUri.length <= 500) (bundle.remoteFollows ??= []).push({ handle: str(follow.handle), actorUri, since: str(follow.since) });
    else bundle.skipped.push({ item: `followed account ${String(follow.handle ?? follow.actor_uri ?? '?').slice(0, 80)}`, reason: 'no profile address to follow it at' });
  }

  const commentsOf = new Map<string, ImportComment[]>();
  for (const comment of await json(entries, 'comments.json')) {
    const blogId = String(comment.blog_id);
    const text = str(comment.text);
    if (!text) continue;
    const list = commentsOf.get(blogId) ?? [];
    list.push({
      sourceId: String(comment.id),
      parentSourceId: str(comment.parent_id),
      authorName: str(comment.author_name) ?? 'Someone',
      authorUrl: null,
      text,
      createdAt: str(comment.created_at) ?? new Date(0).toISOString(),
      approved: true,
    });
    commentsOf.set(blogId, list);
  }

  for (const file of [...files].filter((name) => /^posts\/[^/]+\.md$/.test(name)).sort()) {
    const read = await readPostFile(entries, file, bundle.skipped);
    if (!read) continue;
    const { data, body } = read;
    const id = str(data.id) ?? file.slice('posts/'.length, -'.md'.length);
    const images: ImportPost['images'] = [];
    for (const match of new Set(body.match(/images\/[0-9a-f]{64}\.[a-z0-9]+/g) ?? [])) {
      if (files.has(match)) images.push({ ref: { kind: 'archive', path: match }, inMarkdown: match });
    }
    const photo = str(data.photo);
    const aliases = Array.isArray(data.aliases) ? data.aliases.map(String) : [];
    const category = str(data.category);
    bundle.posts.push({
      sourceId: id,
      authorSourceId: str(data.author_id),
      title: str(data.title) ?? '',
      markdown: body,
      summary: str(data.short_description),
      status: data.availability === 'Hidden' ? 'draft' : 'published',
      visibility: 'public',
      publishedAt: str(data.created_at),
      updatedAt: str(data.updated_at),
      categories: category ? [category] : [],
      tags: Array.isArray(data.tags) ? data.tags.map(String) : [],
      own: { type: str(data.type), details: str(data.details) },
      cover: photo && files.has(photo) ? { kind: 'archive', path: photo } : photo && /^https?:/.test(photo) ? { kind: 'url', url: photo } : null,
      images,
      oldPaths: [...new Set([`/blogs/${id}`, ...aliases.filter((alias) => alias.startsWith('/'))])],
      comments: commentsOf.get(id) ?? [],
    });
  }
  return bundle;
}
