import { createHash, randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { knownVersions, type PageVersions, readCurrentVersions } from '~/db/content-version.server';
import { countsFreshness, keptSpan } from '~/features/blogs/view-counter.server';
import { tallies } from '~/lib/render/metrics.server';
import type { CachedRead, Cacheability } from '~/lib/render/cacheability';
import { OPERATIONS } from '../api/operations.server';
import type { AppDeps, AppEnv } from '../../context.server';
import { type BuiltRoute, pagesOf } from '../../metrics.server';
import { compressWhole, pickEncoding } from './compress.server';

/**
 * What anonymous visitors read is the same for all of them: the rendered page (or API answer) is
 * kept, with its compressed forms, and sent again until what it shows changes
 * (docs/decisions/019 explains the choices, the kept page's CSP (hashes, no nonce) included; 024
 * how freshness is decided per thing shown). Only the reads that declare it are kept, where they are
 * defined (docs/decisions/055): a route module's `handle.cache`, an API operation's `cache`.
 * Everything else renders every time.
 */
export interface KeptRead {
  pattern: RegExp;
  cache: Cacheability;
  /** A page with a component (an HTML document), not a resource route such as a feed. */
  page?: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
const CACHEABILITIES = new Set<unknown>(['blog', 'lists', 'lists-without-counts'] satisfies Cacheability[]);

/**
 * The pages of React Router's build that declare `handle.cache`, as patterns; a page with a
 * component is also asked for as React Router's data request (`/allblogs.data`, `/_root.data`
 * for `/`). A path's `:param` is one segment; a blog's read takes its blog from the first.
 */
export function pageReadsOf(routes: Record<string, BuiltRoute | undefined>): KeptRead[] {
  const reads: KeptRead[] = [];
  const pages = pagesOf(routes);
  for (const { path, route } of pages) {
    const cache = (route.module?.handle as Partial<CachedRead> | undefined)?.cache;
    if (!CACHEABILITIES.has(cache)) continue;
    const data = route.module?.default !== undefined;
    const body = path === '/' ? (data ? '/(?:_root\\.data)?' : '/') : `${escapeRegExp(path).replace(/:\w+/g, '([^/]+?)')}${data ? '(?:\\.data)?' : ''}`;
    // A path a more specific route answers is that route's, as React Router ranks them
    // (`/blogs/:id/like` before `/blogs/:id/:slug`): never kept under this read.
    const others = pages.filter((other) => outranks(other.path, path)).map((other) => `${escapeRegExp(other.path).replace(/:\w+/g, '[^/]+?')}(?:\\.data)?`);
    const except = others.length > 0 ? `(?!(?:${[...new Set(others)].join('|')})$)` : '';
    reads.push({ pattern: new RegExp(`^${except}${body}$`, 'i'), cache: cache as Cacheability, page: data });
  }
  return reads;
}

/** Whether route `a` takes some paths route `b` also matches, by a static segment where `b` has a parameter. */
function outranks(a: string, b: string): boolean {
  const as = a.split('/');
  const bs = b.split('/');
  if (a === b || as.length !== bs.length) return false;
  let more = false;
  for (let i = 0; i < as.length; i++) {
    const aParam = as[i]!.startsWith(':');
    const bParam = bs[i]!.startsWith(':');
    if (!aParam && !bParam && as[i] !== bs[i]) return false;
    if (aParam && !bParam) return false;
    if (!aParam && bParam) more = true;
  }
  return more;
}

/** An API path template as a pattern; the `{param}` a blog read follows is the one group. */
const pathPattern = (path: string) => new RegExp(`^${escapeRegExp(path).replace(/\{[^}]+\}/g, '([^/]+)')}$`);
/** The public JSON reads, from their declarations (`cache` in OPERATIONS). */
export const API_READS: KeptRead[] = OPERATIONS.filter((op) => op.method === 'get' && op.cache).map((op) => ({ pattern: pathPattern(op.path), cache: op.cache! }));

/** The read `path` is, if it may be kept for an anonymous GET, among the pages' and the API's. */
export function keptReadOf(pageReads: readonly KeptRead[], path: string): KeptRead | undefined {
  return pageReads.find((read) => read.pattern.test(path)) ?? API_READS.find((read) => read.pattern.test(path));
}

/** The headers, ETag and bookkeeping an entry holds beside its bytes, roughly. */
const ENTRY_OVERHEAD_BYTES = 1024;
const STORED_TYPES = /^(?:text\/|application\/(?:json|xml|atom\+xml|rss\+xml))/;
const SESSION_OR_FLASH_COOKIE = /(?:^|;\s*)(?:[\w.-]*session_token|afterglow\.flash)=/;
const PUBLIC_CACHE_CONTROL = 'public, no-cache';
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';
const VARY = 'Cookie, Accept-Language, Accept-Encoding';

interface Entry {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** The CSP's script sources of every copy sent: 'self' and the hashes of the page's inline scripts. */
  scriptSources: string;
  etag: string;
  /** A blog's read: the blog's revision and its writer's version it shows (docs/decisions/093); else the lists version it shows. */
  blogRevision: number | null;
  writer: number | null;
  lists: number;
  /** Until when the counts it shows may stand: the counts' bound, less a share drawn per entry (keptSpan); null when it shows none. */
  countsUntil: number | null;
  /** Made once, on the first request that asks for them. */
  encoded: { br?: Promise<Buffer>; gzip?: Promise<Buffer> };
  /** The compressed forms once made, for an answer that cannot wait for a promise. */
  made: { br?: Buffer; gzip?: Buffer };
  /** The headers of a hit answered early, made on the first. */
  sent?: Record<string, string>;
  /** Bytes it holds: the body, and each compressed form once made. */
  size: number;
}

/** What a kept answer needs of its request, read before any Request object is made. */
export interface EarlyRequest {
  url: string;
  path: string;
  header(name: string): string | undefined;
}

/** A kept answer as it is sent, but for the security headers and the request id. */
export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  scriptSources: string;
}

export interface PageCache extends MiddlewareHandler<AppEnv> {
  /**
   * A GET by a reader with no session the cache can answer now from what it holds, without
   * waiting on anything; null when the middleware must decide (a miss, a stale entry, a form not
   * yet compressed, a conditional request, versions not known without a query).
   */
  early(request: EarlyRequest): EarlyAnswer | null;
}

export function pageCache(deps: AppDeps, pageReads: readonly KeptRead[] = []): PageCache {
  // How long a kept read may show counts that are no longer current: views change no version at
  // all, and like and comment counts on lists change no list version (decision 024). A counted
  // view is written within the flush interval and then shown by the next render.
  const { keptMs } = countsFreshness(deps.config.COUNTS_MAX_AGE_S * 1000);
  // A blog's read follows its revision and its writer's version (gone: never fresh); every other
  // read the lists version.
  const isFresh = (entry: Entry, versions: PageVersions, now: number) => {
    const same = entry.blogRevision !== null ? versions.blog === entry.blogRevision && versions.writer === entry.writer : entry.lists === versions.lists;
    return same && (entry.countsUntil === null || now < entry.countsUntil);
  };
  const keeping = deps.config.PAGE_CACHE_MB > 0;
  const cache = new LRUCache<string, Entry>({
    maxSize: Math.max(1, deps.config.PAGE_CACHE_MB * 1024 * 1024),
    // What an entry holds, counted as it grows: a guess of twice the body kept about 400 blog
    // pages in 32 MB, fewer than the 500 a live site's readers spread over (decision 039).
    sizeCalculation: (entry) => entry.size,
  });
  tallies.held.set('page_cache', () => cache.calculatedSize);
  /** A compressed form was added: the entry is counted again at its new size (if still kept). */
  const grown = (key: string, entry: Entry) => {
    if (cache.peek(key) === entry) cache.set(key, entry);
  };

  // Renders under way, by key: a burst of misses for one page (right after a change, or a cold
  // deep page) renders it once; the others wait for that copy instead of each querying anew.
  const rendering = new Map<string, Promise<Entry | null>>();

  const early = (request: EarlyRequest): EarlyAnswer | null => {
    if (!keeping || request.header('if-none-match') !== undefined || request.header('authorization') !== undefined) return null;
    const cookie = request.header('cookie');
    if (cookie !== undefined && (cookie.includes('session_token') || SESSION_OR_FLASH_COOKIE.test(cookie))) return null;
    const read = keptReadOf(pageReads, request.path);
    if (!read) return null;
    const entry = cache.get(`${request.url}\n${request.header('accept-language') ?? ''}`);
    if (!entry) return null;
    const versions = knownVersions(deps.database, read.cache === 'blog' ? blogOf(read, request.path) : null);
    if (!versions || !isFresh(entry, versions, deps.now().getTime())) return null;
    const encoding = entry.body.length >= 1024 ? pickEncoding(request.header('accept-encoding')) : null;
    const body = encoding ? entry.made[encoding] : entry.body;
    if (!body) return null;
    tallies.pageCache.hits++;
    entry.sent ??= sentHeaders(entry);
    const headers: Record<string, string> = { ...entry.sent, 'content-length': String(body.length) };
    if (encoding) headers['content-encoding'] = encoding;
    return { status: entry.status, headers, body, scriptSources: entry.scriptSources };
  };

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const method = c.req.method;
    const anonymous = !c.get('user') && !SESSION_OR_FLASH_COOKIE.test(c.req.header('cookie') ?? '');
    // Signed-in requests and writes never look through the patterns.
    const read = keeping && anonymous && (method === 'GET' || method === 'HEAD') ? keptReadOf(pageReads, c.req.path) : undefined;
    if (!read) {
      await next();
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
      return;
    }

    // A kept read holds nothing of the client's: not the request id it sent (the page's data
    // names the request id), whose place takes one of the server's own.
    if (c.req.header('x-request-id')) c.set('requestId', randomUUID());
    // The whole URL: without PUBLIC_URL, canonical links and feeds name the host they were asked at.
    const key = `${c.req.url}\n${c.req.header('accept-language') ?? ''}`;
    // Read before rendering: a write during the render leaves the entry already stale, never
    // a stale page filed under the new version.
    const blogId = read.cache === 'blog' ? blogOf(read, c.req.path) : null;
    const versions = await readCurrentVersions(deps.database, blogId);
    const now = deps.now().getTime();
    // Looked up without awaiting first: the check and the claim below must happen in one turn.
    const pending = rendering.get(key);
    let cached = cache.get(key);
    if ((!cached || !isFresh(cached, versions, now)) && pending) cached = (await pending) ?? undefined;
    if (cached && isFresh(cached, versions, now)) {
      tallies.pageCache.hits++;
      c.set('scriptSources', cached.scriptSources);
      return respond(c.req.header('if-none-match'), c.req.header('accept-encoding'), method, cached, 'HIT', () => grown(key, cached));
    }

    // The first miss for a key renders; misses that arrive meanwhile wait for its copy above.
    tallies.pageCache.misses++;
    let settle: ((entry: Entry | null) => void) | undefined;
    if (method === 'GET' && !rendering.has(key)) rendering.set(key, new Promise((resolve) => (settle = resolve)));
    let entry: Entry | null = null;
    try {
      await next();
      const res = c.res;
      const type = res.headers.get('content-type') ?? '';
      if (res.status !== 200 || method !== 'GET' || res.headers.has('set-cookie') || !STORED_TYPES.test(type) || res.headers.has('content-encoding')) {
        if (!res.headers.has('Cache-Control')) res.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
        return;
      }
      const { body, scriptSources } = withoutNonce(Buffer.from(await res.arrayBuffer()), c.get('nonce'), type);
      entry = {
        status: res.status,
        headers: [...res.headers].filter(([name]) => name !== 'content-length' && name !== 'cache-control'),
        body,
        scriptSources,
        etag: `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
        blogRevision: blogId === null ? null : versions.blog,
        writer: versions.writer,
        lists: versions.lists,
        countsUntil: read.cache === 'lists-without-counts' ? null : now + keptSpan(keptMs),
        encoded: {},
        made: {},
        size: body.length + ENTRY_OVERHEAD_BYTES,
      };
      cache.set(key, entry);
    } finally {
      if (settle) {
        rendering.delete(key);
        settle(entry);
      }
    }
    c.res = undefined;
    c.set('scriptSources', entry.scriptSources);
    const made = entry;
    c.res = await respond(c.req.header('if-none-match'), c.req.header('accept-encoding'), method, made, 'MISS', () => grown(key, made));
  };
  return Object.assign(middleware, { early });
}

/** The headers `respond` sends with a hit, as one object made once per entry. */
function sentHeaders(entry: Entry): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of entry.headers) headers[name] = value;
  // Lower case, as the stored names are: a name set twice in another case would be sent twice.
  return { ...headers, etag: entry.etag, 'cache-control': PUBLIC_CACHE_CONTROL, vary: VARY, 'x-cache': 'HIT' };
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * A kept page as every copy is sent: without the nonce of the request that rendered it, and with
 * the script sources its CSP names instead ('self' for the site's own files, and the hash of each
 * inline script), so copies share no nonce and none is needed (docs/decisions/019).
 */
function withoutNonce(rendered: Buffer, nonce: string, type: string): { body: Buffer; scriptSources: string } {
  if (!type.startsWith('text/html')) return { body: rendered, scriptSources: "'self'" };
  const html = nonce ? rendered.toString('utf8').replaceAll(` nonce="${nonce}"`, '') : rendered.toString('utf8');
  return { body: Buffer.from(html), scriptSources: scriptSourcesOf(html, type) };
}

/**
 * The script sources of a page sent without a nonce: 'self' for the site's own files, and the hash
 * of each inline script of an HTML page. Shared with a signed-in reader's kept page (decision 096).
 */
export function scriptSourcesOf(page: string | Buffer, type: string): string {
  if (!type.startsWith('text/html')) return "'self'";
  const hashes = new Set<string>();
  for (const [, attributes, text] of page.toString().matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(text!, 'utf8').digest('base64')}'`);
  }
  return ["'self'", ...hashes].join(' ');
}

/** The blog a blog's read shows: its path's first parameter. */
export function blogOf(read: KeptRead, path: string): string | null {
  const match = read.pattern.exec(path);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    // Not a valid escape, so not a blog id: it matches no row and renders the 404.
    return match[1];
  }
}

async function respond(
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  method: string,
  entry: Entry,
  state: 'HIT' | 'MISS',
  onGrown: () => void,
): Promise<Response> {
  const headers = new Headers(entry.headers);
  headers.set('ETag', entry.etag);
  headers.set('Cache-Control', PUBLIC_CACHE_CONTROL);
  headers.set('Vary', VARY);
  headers.set('X-Cache', state);
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === entry.etag || tag.trim() === '*')) {
    headers.delete('content-type');
    return new Response(null, { status: 304, headers });
  }
  const encoding = entry.body.length >= 1024 ? pickEncoding(acceptEncoding) : null;
  let body = entry.body;
  if (encoding) {
    // Kept bytes are compressed once, so harder than a streamed page could afford.
    let made = entry.encoded[encoding];
    if (!made) {
      made = entry.encoded[encoding] = compressWhole(entry.body, encoding, 'kept');
      body = entry.made[encoding] = await made;
      entry.size += body.length;
      onGrown();
    } else body = await made;
    headers.set('Content-Encoding', encoding);
  }
  headers.set('Content-Length', String(body.length));
  return new Response(method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: entry.status, headers });
}
