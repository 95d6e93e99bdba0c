import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout } from 'node:timers/promises';
import { stringify } from 'yaml';
import { ZipFile } from 'yazl';
import type { ExportScope } from '~/db/schema';
import type { ServiceContext } from '~/lib/core/service-context';
import * as repo from './exports.repo.server';
import { ghostJson } from './ghost-json.server';
import { legacyPathsOf } from '~/features/imports/imports.service.server';
import { tagsOfBlogs } from '~/features/tags/tags.service.server';

/**
 * The export zip (docs/decisions/074), laid out as our own importer reads it back:
 *
 *   manifest.json, posts/<id>.md (YAML front matter, then the body byte for byte),
 *   images/<sha256>.<ext>, comments.json, authors.json; a writer's profile.json, likes.json,
 *   wishlist.json, follows.json and remote-follows.json (accounts on other servers); the site's ghost.json.
 *
 * It is streamed to a file: posts and comments are read a page at a time, and an image is held
 * only until the zip has written it (a lazily opened entry tells when the zip caught up).
 */

/** The tags of each post, or null where this site has no tags: the front matter then has no `tags`. */

export interface ArchiveRequest {
  scope: ExportScope;
  /** Writer scope: whose things. */
  userId: string | null;
  /** PUBLIC_URL (or null): written in the manifest, and the origin of ghost.json's absolute links. */
  siteUrl: string | null;
  /** When the export was made; also every entry's time in the zip. */
  exportedAt: Date;
}

export interface ArchiveSummary {
  bytes: number;
  posts: number;
  images: number;
  comments: number;
}

const PAGE = 200;
/** Bytes handed to the zip before the builder waits for it to catch up. */
const IN_FLIGHT_BYTES = 8 * 1024 * 1024;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Our own images in a text: a base of the store, then a name the pipeline generates. */
export function ownImagePattern(bases: readonly string[]): RegExp {
  return new RegExp(`(?:${bases.map(escapeRegExp).join('|')})([0-9a-f-]{36}-\\d{2,4}\\.webp)`, 'g');
}

/** Writes the zip for `request` to `file` and answers what went in. */
export async function writeArchive(ctx: ServiceContext, request: ArchiveRequest, file: string): Promise<ArchiveSummary> {
  const zip = new ZipFile();
  const out = createWriteStream(file, { mode: 0o600 });
  // yazl's output is a PassThrough (its types say only "a readable stream").
  const output = zip.outputStream as unknown as PassThrough;
  output.pipe(out);
  const done = finished(out);
  const mtime = request.exportedAt;
  let inFlight = 0;

  /**
   * Adds an entry, opened lazily: yazl keeps every entry (and what its pump function holds) until
   * the end, so an entry holds its bytes only until the zip reaches it. Past IN_FLIGHT_BYTES the
   * builder waits for that, then for the file to catch up (yazl writes to its output without
   * waiting, so what the disk has not taken yet would pile up in memory).
   */
  const add = async (name: string, body: Buffer, compress = true) => {
    let held: Buffer | null = body;
    let reached!: () => void;
    const opened = new Promise<void>((resolve) => (reached = resolve));
    zip.addReadStreamLazy(name, { mtime, compress, size: body.length }, (cb) => {
      const bytes = held!;
      held = null;
      reached();
      cb(null, Readable.from([bytes]));
    });
    inFlight += body.length;
    if (inFlight < IN_FLIGHT_BYTES) return;
    inFlight = 0;
    await opened;
    while (output.readableLength + output.writableLength + out.writableLength > IN_FLIGHT_BYTES) await setTimeout(2);
  };
  const addJson = (name: string, value: unknown) => add(name, Buffer.from(`${JSON.stringify(value, null, 2)}\n`));
  /** A big JSON document, produced as the zip reaches it. */
  const addStream = (name: string, chunks: () => AsyncIterable<string>) => zip.addReadStreamLazy(name, { mtime }, (cb) => cb(null, Readable.from(chunks())));

  const bases = ctx.imageBases ?? ['/uploads/'];
  const images = new Images(ctx, bases, add);
  const summary: ArchiveSummary = { bytes: 0, posts: 0, images: 0, comments: 0 };
  try {
    await addJson('manifest.json', { format: 'afterglow-export', version: 1, exportedAt: request.exportedAt.toISOString(), site: request.siteUrl, scope: request.scope });

    const ownerId = request.scope === 'writer' ? request.userId : null;
    for (let afterId: string | null = null; ; ) {
      const posts = await repo.postsPage(ctx.db, { ownerId, afterId, limit: PAGE });
      if (posts.length === 0) break;
      const tags = await tagsOfBlogs(ctx, posts.map((p) => p.id));
      const aliases = await legacyPathsOf(ctx, posts.map((p) => p.id));
      for (const post of posts) {
        await add(`posts/${post.id}.md`, Buffer.from(await postMarkdown(post, images, tags.get(post.id) ?? [], aliases.get(post.id) ?? [])));
        summary.posts++;
      }
      afterId = posts.at(-1)!.id;
    }

    const people = await repo.authors(ctx.db, ownerId);
    const authors = [];
    for (const a of people) authors.push({ id: a.id, name: a.name, email: a.email, bio: a.bio, website: a.website, links: parseLinks(a.links), photo: await images.ref(a.photo) });
    await addJson('authors.json', authors);

    if (request.scope === 'writer' && request.userId) {
      const me = await repo.findAccount(ctx.db, request.userId);
      if (me) await addJson('profile.json', { id: me.id, email: me.email, name: me.name, bio: me.bio, website: me.website, links: parseLinks(me.links), photo: await images.ref(me.photo), updated_at: me.updated_at });
      await addJson('likes.json', await repo.likesOf(ctx.db, request.userId));
      await addJson('wishlist.json', await repo.wishlistOf(ctx.db, request.userId));
      await addJson('follows.json', await repo.followsOf(ctx.db, request.userId));
      await addJson('remote-follows.json', await repo.remoteFollowsOf(ctx.db, request.userId));
    }

    addStream('comments.json', () => commentsJson(ctx, request.scope === 'writer' ? request.userId : null, (n) => (summary.comments += n)));
    if (request.scope === 'site') addStream('ghost.json', () => ghostJson(ctx, { siteUrl: request.siteUrl, exportedAt: request.exportedAt, ownImages: ownImagePattern(bases) }));

    zip.end();
    await done;
    summary.images = images.count;
    summary.bytes = out.bytesWritten;
    return summary;
  } catch (error) {
    out.destroy();
    throw error;
  }
}

/** Each stored image once, named by its content's hash; a name read again is answered from memory. */
class Images {
  private readonly byName = new Map<string, string | null>();
  private readonly hashes = new Set<string>();
  private readonly pattern: RegExp;
  constructor(
    private readonly ctx: ServiceContext,
    bases: readonly string[],
    private readonly add: (name: string, body: Buffer, compress: boolean) => Promise<void>,
  ) {
    this.pattern = ownImagePattern(bases);
  }

  get count(): number {
    return this.hashes.size;
  }

  /** `images/<sha256>.webp` for one of our stored images (added to the zip once), else null. */
  private async archivePath(name: string): Promise<string | null> {
    if (this.byName.has(name)) return this.byName.get(name)!;
    const bytes = await this.ctx.images.read(name);
    let path: string | null = null;
    if (bytes) {
      const hash = createHash('sha256').update(bytes).digest('hex');
      path = `images/${hash}.webp`;
      if (!this.hashes.has(hash)) {
        this.hashes.add(hash);
        // A WebP is compressed already: stored as it is.
        await this.add(path, bytes, false);
      }
    } else {
      this.ctx.log.warn({ image: name }, 'export: an image the content names is not in the store; its address is kept');
    }
    this.byName.set(name, path);
    return path;
  }

  /** A photo field: its archive path when it is one of ours, else the address as it is. */
  async ref(url: string | null): Promise<string | null> {
    if (!url) return null;
    const own = [...url.matchAll(this.pattern)][0];
    if (!own || own[0] !== url) return url;
    return (await this.archivePath(own[1]!)) ?? url;
  }

  /** The text with each of our images' addresses replaced by its archive path. */
  async rewrite(text: string): Promise<string> {
    const found = [...text.matchAll(this.pattern)];
    if (found.length === 0) return text;
    const paths = new Map<string, string | null>();
    for (const m of found) if (!paths.has(m[0])) paths.set(m[0], await this.archivePath(m[1]!));
    return text.replace(this.pattern, (whole) => paths.get(whole) ?? whole);
  }
}

/** YAML front matter between `---` lines, then the body: nothing added after it. */
async function postMarkdown(post: repo.ExportPost, images: Images, tags: string[], aliases: string[]): Promise<string> {
  const front: Record<string, unknown> = {
    id: post.id,
    title: post.title,
    category: post.category,
    type: post.type,
    short_description: post.short_description,
    details: post.details,
    availability: post.availability,
    photo: await images.ref(post.photo),
    created_at: post.created_at,
    updated_at: post.updated_at,
    author_id: post.owner_id,
  };
  front.tags = tags;
  // The old addresses an import brought, which the next site answers as this one does.
  if (aliases.length > 0) front.aliases = aliases;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${await images.rewrite(post.long_description)}`;
}

const parseLinks = (links: string | null): string[] => {
  if (!links) return [];
  try {
    const parsed: unknown = JSON.parse(links);
    return Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
  } catch {
    return [];
  }
};

/** comments.json, a page of rows at a time: each with its parent, so threads read back as they were. */
async function* commentsJson(ctx: ServiceContext, userId: string | null, counted: (n: number) => void): AsyncIterable<string> {
  yield '[';
  let first = true;
  for (let afterId: string | null = null; ; ) {
    const rows = await repo.commentsPage(ctx.db, { userId, afterId, limit: PAGE * 5 });
    if (rows.length === 0) break;
    counted(rows.length);
    for (const c of rows) {
      const item = {
        id: c.id,
        blog_id: c.blog_id,
        parent_id: c.parent_id,
        author_id: c.user_id,
        author_name: c.author_name ?? '',
        author_url: c.remote_url,
        text: c.comment_text,
        created_at: c.commented_at,
        edited_at: c.edited_at,
        deleted: c.deleted_at !== null,
        hidden: c.hidden_at !== null,
        removed: c.removed_at !== null,
      };
      yield `${first ? '\n' : ',\n'}  ${JSON.stringify(item)}`;
      first = false;
    }
    afterId = rows.at(-1)!.id;
  }
  yield first ? ']\n' : '\n]\n';
}
