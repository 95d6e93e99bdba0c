/** What every source reader produces: the archive's content in our terms, before anything is written. */
export interface ImportBundle {
  source: 'ghost' | 'wordpress' | 'substack' | 'medium' | 'markdown' | 'afterglow';
  /** The old site's address when the archive names it (used to resolve relative links and old paths). */
  siteUrl: string | null;
  /** The old site's title when the archive names it (Ghost's settings, WordPress's channel): a whole site's import names it to its subscribers (docs/decisions/095). */
  siteTitle?: string | null;
  authors: ImportAuthor[];
  posts: ImportPost[];
  subscribers: ImportSubscriber[];
  /** Accounts on other servers the writer followed (our own export only, docs/decisions/089): asked again after the rest. */
  remoteFollows?: ImportRemoteFollow[];
  /** Items the reader could not use, with why (shown in the report). */
  skipped: { item: string; reason: string }[];
}
export interface ImportAuthor { sourceId: string; name: string; email: string | null; bio: string | null; avatar: ImportImageRef | null }
export interface ImportPost {
  /** Stable id in the source (kept: importing the same archive twice changes nothing). */
  sourceId: string;
  authorSourceId: string | null;
  title: string;
  /** The body as Markdown (HTML already converted with the shared converter, see below). */
  markdown: string;
  /** A short description if the source has one (excerpt, subtitle, custom_excerpt). */
  summary: string | null;
  status: 'published' | 'draft';
  visibility: 'public' | 'members' | 'paid';
  publishedAt: string | null; // ISO
  updatedAt: string | null;   // ISO
  /** The source's categories and tags, as named there; mapped onto our seven categories by the importer. */
  categories: string[];
  tags: string[];
  /** The fields only our own export carries (a post's type and details); absent for other sources. */
  own?: { type: string | null; details: string | null };
  cover: ImportImageRef | null;
  /** Every image the body uses, with the exact string the Markdown holds so it can be replaced. */
  images: { ref: ImportImageRef; inMarkdown: string }[];
  /** Old paths this post answered at (`/2019/05/slug/`, `/p/slug`, Hugo aliases), site-relative, starting with '/'. */
  oldPaths: string[];
  comments: ImportComment[];
}
export interface ImportComment { sourceId: string; parentSourceId: string | null; authorName: string; authorUrl: string | null; text: string; createdAt: string; approved: boolean }
export interface ImportRemoteFollow { handle: string | null; actorUri: string; since: string | null }
/** `active` comes as pending (or confirmed, when the operator says they consented); the others stay out, the report saying why. */
export interface ImportSubscriber { email: string; name: string | null; status: 'active' | 'unsubscribed' | 'bounced' | 'deleted'; createdAt: string | null }
/**
 * What a reader is asked (docs/decisions/095). `onPosts`: a reader that can hands its posts on as
 * it reads them, in their order, a chunk of about `chunk` at a time, and keeps none it handed on
 * (they are not in the bundle it answers, which holds only the rest); the scan stages each chunk
 * so its memory does not grow with the archive's text. A reader that cannot answers them all in
 * its bundle, as before. `onRewrite`: a reader whose posts name what comes later in the file
 * (WordPress's galleries and featured images name attachments; Ghost's tags and authors come in
 * tables after its posts) hands them on only when it is
 * given, and once the file is read has the posts at `indexes` (in the order handed on, ascending)
 * passed through `rewrite`, so what is staged is what the whole bundle holds.
 */
/** How many posts a reader hands on at a time, unless told (`ReadOptions.chunk`). */
export const POST_CHUNK = 200;
/** A reader's posts handed on once they make a chunk (`ReadOptions.onPosts`), its list emptied; kept without `onPosts`. */
export async function handOnPosts(posts: ImportPost[], options: ReadOptions): Promise<void> {
  if (options.onPosts && posts.length >= (options.chunk ?? POST_CHUNK)) await options.onPosts(posts.splice(0));
}
export interface ReadOptions {
  siteUrl?: string | null;
  onPosts?: (posts: ImportPost[]) => Promise<void>;
  onRewrite?: (indexes: number[], rewrite: (index: number, post: ImportPost) => ImportPost) => Promise<void>;
  chunk?: number;
}
/** An image either inside the archive (a path in the zip) or at an old URL, fetched once, guarded. */
export type ImportImageRef = { kind: 'archive'; path: string } | { kind: 'url'; url: string };
/** A reader takes a readable archive and yields the bundle; it never writes to the database. */
export interface ArchiveEntries {
  /** Paths in the archive (normalised, no '..', no absolute paths). */
  list(): string[];
  /** A file's bytes, size-limited (throws ArchiveRefused when over the limit). */
  read(path: string): Promise<Buffer>;
  /** The same bytes as they are read, never held whole (a reader that parses as it goes: WordPress's export, docs/decisions/095). */
  stream?(path: string): AsyncIterable<Uint8Array>;
}
export class ArchiveRefused extends Error {}
