import { entriesOf } from '../archive.server';
import { htmlToMarkdown } from '../html-to-markdown.server';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parser } from 'stream-json';
import Assembler from 'stream-json/assembler.js';
import { type ArchiveEntries, ArchiveRefused, type ImportBundle, type ImportPost, POST_CHUNK, type ReadOptions } from '../import-model';
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

/** The tables read; posts one by one, the others held (they are small). */
const TABLES = new Set(['posts', 'tags', 'posts_tags', 'users', 'posts_authors', 'settings']);
/** No Ghost export nests deeper than a few levels (bodies are strings); a deeper file is refused as it is read. */
export const GHOST_MAX_DEPTH = 64;
class NotJson extends Error {}
type Frame = { array: boolean; key: string | number };
/**
 * Reads a Ghost export as it comes (docs/decisions/095), handing each row of the tables read to
 * `onRow` once it is whole: the tables under `data` (or beside it, without the wrapper), in
 * `{"db":[…]}` or not. `onRow` answers false to stop reading. Answers whether a posts list was met.
 */
async function walkGhost(source: AsyncIterable<Uint8Array>, onRow: (table: string, row: Row) => Promise<boolean | void> | boolean | void): Promise<boolean> {
  const frames: Frame[] = [];
  let posts = false;
  let row: { table: string; asm: Assembler<Row>; depth: number } | null = null;
  // Where a value sits below the export's root: [db, 0, …] is read as […].
  const place = (): (string | number)[] => {
    const path = frames.map((frame) => frame.key);
    return path[0] === 'db' && path[1] === 0 && frames[1]?.array ? path.slice(2) : path;
  };
  // The table a value here is a row of: [data, table, n] or [table, n].
  const tableOf = (): string | null => {
    const rest = place();
    const table = rest.length === 3 && rest[0] === 'data' ? rest[1] : rest.length === 2 ? rest[0] : null;
    return typeof table === 'string' && frames.at(-1)!.array ? table : null;
  };
  const isPostsList = () => ['data,posts', 'posts'].includes(place().join());
  const next = () => {
    const top = frames.at(-1);
    if (top?.array) top.key = Number(top.key) + 1;
  };
  const stop = Symbol('stop');
  const fromRow = new WeakSet<object>();
  try {
    await pipeline(Readable.from(source), parser.asStream({ packValues: true, streamValues: false }), async (tokens: AsyncIterable<parser.Token>) => {
      for await (const token of tokens) {
        if (token.name === 'keyValue') {
          frames.at(-1)!.key = token.value;
          row?.asm.consume(token);
          continue;
        }
        const opens = token.name === 'startObject' || token.name === 'startArray';
        const closes = token.name === 'endObject' || token.name === 'endArray';
        if (!row && !closes) {
          const table = frames.length ? tableOf() : null;
          if (table && TABLES.has(table)) row = { table, asm: new Assembler<Row>(), depth: frames.length };
          if (token.name === 'startArray' && isPostsList()) posts = true;
        }
        if (row) row.asm.consume(token);
        if (opens) {
          frames.push({ array: token.name === 'startArray', key: token.name === 'startArray' ? 0 : '' });
          if (frames.length > GHOST_MAX_DEPTH) throw new ArchiveRefused(`The Ghost export nests deeper than ${GHOST_MAX_DEPTH} levels; no Ghost export does.`);
          continue;
        }
        if (closes) frames.pop();
        if (row && frames.length === row.depth) {
          const { table, asm } = row;
          row = null;
          if (asm.current && typeof asm.current === 'object' && !Array.isArray(asm.current)) {
            const current = asm.current;
            const more = await (async () => onRow(table, current))().catch((error: unknown) => {
              if (error instanceof Object) fromRow.add(error);
              throw error;
            });
            if (more === false) throw stop;
          }
        }
        next();
      }
    });
  } catch (error) {
    if (error === stop) return posts;
    if (error instanceof ArchiveRefused || (error instanceof Object && fromRow.has(error))) throw error;
    throw new NotJson((error as Error).message);
  }
  return posts;
}

function streamOf(entries: ArchiveEntries, name: string): AsyncIterable<Uint8Array> {
  return entries.stream ? entries.stream(name) : (async function* () { yield await entries.read(name); })();
}

/** Whether an archive's JSON file reads as a Ghost export (used to tell formats apart): read until its first post. */
export async function isGhostExport(entries: ArchiveEntries, name: string): Promise<boolean> {
  try {
    return await walkGhost(streamOf(entries, name), (table) => table !== 'posts');
  } catch (error) {
    if (error instanceof NotJson) return false;
    throw error;
  }
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

/**
 * Reads the export as it comes. Given `onPosts` and `onRewrite` (docs/decisions/095), its posts
 * are handed on 200 at a time as converted; Ghost's tables come in no set order (its own export
 * puts posts first), so a handed-on post has its tags and author once the file is read, by
 * `onRewrite` for those that have any. The small tables are held.
 */
export async function readGhost(input: ArchiveEntries | Buffer, options: ReadOptions = {}): Promise<ImportBundle> {
  const entries = Buffer.isBuffer(input) ? entriesOf({ 'ghost.json': input }) : input;
  const files = entries.list();
  const jsonName = findGhostJson(files);
  if (!jsonName) throw new ArchiveRefused('The archive holds no Ghost JSON export.');
  const siteUrl = options.siteUrl ?? null;
  // Ghost names its own images by the placeholder; inside the archive they sit at the same path.
  const site = siteUrl ?? '';
  const fileSet = new Set(files);
  const root = jsonName.includes('/') ? jsonName.slice(0, jsonName.lastIndexOf('/') + 1) : '';
  const candidates = (target: string) => {
    const local = sitePath(target.replace(GHOST_URL, ''), siteUrl);
    return local ? [local, `${root}${local}`] : [];
  };
  const bundle: ImportBundle = { source: 'ghost', siteUrl, siteTitle: null, authors: [], posts: [], subscribers: [], skipped: [] };

  const convert = (post: Row): ImportPost | null => {
    const id = String(post.id ?? '');
    const title = str(post.title) ?? '';
    const label = title || id || 'a post without an id';
    if (!id) {
      bundle.skipped.push({ item: label, reason: 'it has no id' });
      return null;
    }
    if (post.type === 'page') return null;
    let html: string | null;
    const blocks: string[] = [];
    try {
      html = bodyHtml(post, blocks);
    } catch (error) {
      bundle.skipped.push({ item: label, reason: `its body could not be read (${(error as Error).message})` });
      return null;
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
    const visibility = post.visibility === 'members' ? 'members' : post.visibility === 'paid' || post.visibility === 'tiers' ? 'paid' : 'public';
    const slug = str(post.slug);
    return {
      sourceId: id,
      authorSourceId: str(post.author_id) ?? null, // posts_authors, once read, names the first author
      title,
      markdown,
      summary: str(post.custom_excerpt) ?? str(post.excerpt) ?? str(post.meta_description),
      status: post.status === 'published' ? 'published' : 'draft',
      visibility,
      publishedAt: str(post.published_at),
      updatedAt: str(post.updated_at),
      categories: [], // its tags, once read
      tags: [],
      cover,
      images,
      oldPaths: slug ? [`/${slug}/`] : [],
      comments: [],
    };
  };

  const held: Record<string, Row[]> = { tags: [], posts_tags: [], users: [], posts_authors: [], settings: [] };
  const chunked = options.onPosts && options.onRewrite ? { onPosts: options.onPosts, onRewrite: options.onRewrite, size: options.chunk ?? POST_CHUNK } : null;
  const handedIds: string[] = [];
  let hasPosts: boolean;
  try {
    hasPosts = await walkGhost(streamOf(entries, jsonName), async (table, row) => {
      if (table !== 'posts') return void held[table]!.push(row);
      const post = convert(row);
      if (post) bundle.posts.push(post);
      if (chunked && bundle.posts.length >= chunked.size) {
        handedIds.push(...bundle.posts.map((handed) => handed.sourceId));
        await chunked.onPosts(bundle.posts.splice(0));
      }
    });
  } catch (error) {
    if (error instanceof NotJson) throw new ArchiveRefused(`${jsonName} is not valid JSON (${error.message}).`);
    throw error;
  }
  if (!hasPosts) throw new ArchiveRefused(`${jsonName} is not a Ghost export: it has no posts.`);

  const tags = new Map(held.tags!.map((tag) => [String(tag.id), tag]));
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of held.posts_tags!) {
    const tag = tags.get(String(link.tag_id));
    const name = tag && str(tag.name);
    if (!name || name.startsWith('#')) continue; // internal tags steer themes, they are not topics
    const list = tagsOf.get(String(link.post_id)) ?? [];
    list.push({ name, order: Number(link.sort_order ?? list.length) });
    tagsOf.set(String(link.post_id), list);
  }
  const authorOf = new Map<string, { id: string; order: number }>();
  for (const link of held.posts_authors!) {
    const order = Number(link.sort_order ?? 0);
    const current = authorOf.get(String(link.post_id));
    if (!current || order < current.order) authorOf.set(String(link.post_id), { id: String(link.author_id), order });
  }
  bundle.authors = held.users!.map((user) => {
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
  bundle.siteTitle = str(held.settings!.find((row) => row.key === 'title')?.value);

  const resolve = (post: ImportPost): ImportPost => {
    const postTags = (tagsOf.get(post.sourceId) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name);
    // Ghost has no categories: its primary (first) tag plays that part.
    return { ...post, authorSourceId: authorOf.get(post.sourceId)?.id ?? post.authorSourceId, categories: postTags.slice(0, 1), tags: postTags };
  };
  bundle.posts = bundle.posts.map(resolve);
  const linked = handedIds.flatMap((id, index) => (tagsOf.has(id) || authorOf.has(id) ? [index] : []));
  if (chunked && linked.length) await chunked.onRewrite(linked, (_, post) => resolve(post));
  bundle.subscribers = await readGhostMembers(entries, await findGhostMembers(entries), bundle.skipped);
  return bundle;
}
