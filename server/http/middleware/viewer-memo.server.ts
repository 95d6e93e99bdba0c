import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { knownVersions, type PageVersions, readCurrentVersions } from '~/db/content-version.server';
import { countsFreshness, keptSpan } from '~/features/blogs/view-counter.server';
import { tallies } from '~/lib/render/metrics.server';
import { fillTemplate, type PageTemplate } from '~/lib/render/viewer-slots.server';
import type { SessionUser } from '~/lib/core/service-context';
import type { AppDeps, AppEnv } from '../../context.server';
import { compressesNow, compressNow, pickEncoding, wouldCompress } from './compress.server';
import { blogOf, type EarlyAnswer, type EarlyRequest, type KeptRead, PRIVATE_CACHE_CONTROL, scriptSourcesOf } from './page-cache.server';
import { requestIdOf } from './request-context.server';

/**
 * A signed-in reader's page, answered again from what was sent them last (decision 059). Decision
 * 043 renders a signed-in page once per distinct content and fills in the viewer's strings, but
 * every request still ran the loaders, React Router's data path and the memo's key: about nine
 * tenths of the CPU of a kept signed-in page. Here the filled template of the last answer is kept
 * per viewer and URL, and sent again (with this request's nonce and id) while nothing it shows
 * can have changed:
 * - the blog's revision and its writer's version (a blog's page, decision 093), the lists
 *   version and the sessions version stand, as for kept anonymous pages (decision 024), and the
 *   viewer is the same person with the same shown name, email and photo;
 * - nothing was written to a table no version follows (a role, a standing, a subscription…), by
 *   anyone, and nothing to the viewer's own rows (their follows, wishlist, notifications) by
 *   anyone (viewer-writes.server.ts, decision 076);
 * - the viewer sent no write of their own since (any request but GET/HEAD, API or form);
 * - it is younger than the counts' age bound, as every kept page.
 * On SQLite the process sees every write of its own and polls for others'; on PostgreSQL every
 * instance hears every write through its version listener, and answers from the memo only while
 * that listener answers (connected, and its own writes' notifications in): otherwise the page
 * takes the loaders' path.
 *
 * A fresh entry whose session and versions are known from memory is also answered before Hono's
 * chain (`early`, decision 086), with the headers the chain would add to it (decision 096).
 *
 * Every answer of an entry sends the same bytes (decision 096, amended): no nonce (the policy names
 * the hashes of the page's inline scripts instead, as for kept anonymous pages) and the request id
 * of the render it was kept from (each answer's own is in its header). So the page is compressed
 * once per entry and encoding, on the first answer that asks, and those bytes are sent again.
 */
export interface ViewerAnswer {
  /** The render memo's key of its template: the memo holds the template, the entry its name (decision 086). */
  memoKey: string;
  status: number;
  headers: [string, string][];
  template: PageTemplate;
  /** The slot values it was filled with, the nonce left out (it is the last slot). */
  values: string[];
  /** Which value is the request id, replaced by each answer's own; -1 when the page shows none. */
  requestIdSlot: number;
}

/** Handed to the page handler through the load context; entry.server leaves the answer in it. */
export interface ViewerCapture {
  answer?: ViewerAnswer;
}

interface Entry {
  answer: Omit<ViewerAnswer, 'template'>;
  versions: PageVersions;
  all: number;
  own: number;
  writes: number;
  at: number;
  /** How long after `at` it is kept: the counts' bound, less a share drawn per entry (keptSpan). */
  keptFor: number;
  /** Its CSP's script sources: 'self' and the hashes of the page's inline scripts. */
  scriptSources: string;
  /** The page compressed, made on the first answer that asks for each; counted in `size`. */
  encoded: { br?: Buffer; gzip?: Buffer };
  /** What it counts against the memo's bound. */
  size: number;
  /** The headers every answer sends, but for the length, encoding, request id and security headers; made on the first. */
  sent?: Readonly<Record<string, string>>;
}

/** A kept answer made before Hono's chain, as sent but for the security headers and the request id (the header's). */
export interface EarlyViewerAnswer extends EarlyAnswer {
  requestId: string;
}

export interface ViewerMemo extends MiddlewareHandler<AppEnv> {
  /**
   * A GET by a signed-in reader (`userOf`: the user resolved from memory, as the chain would
   * resolve it, asked only for a page the memo keeps) that the memo can answer now: null when the
   * chain must decide (no user known, a miss, a stale entry, versions not known without a query, a
   * flash message).
   */
  early(request: EarlyRequest, userOf: () => SessionUser | null | undefined): EarlyViewerAnswer | null;
}

const FLASH_COOKIE = /(?:^|;\s*)afterglow\.flash=/;
/** What an entry holds besides its values and key, roughly: the headers, versions, counts. */
const ENTRY_BYTES = 1024;

/** `pageReads`: the kept reads of the build (pageReadsOf); the memo keeps only the pages among them. */
export function viewerMemo(deps: AppDeps, pageReads: readonly KeptRead[] = []): ViewerMemo {
  const pages = pageReads.filter((read) => read.page);
  const changes = deps.database.viewerChanges;
  const listener = deps.database.versionListener;
  const memo = deps.renderMemo;
  if (!memo.enabled) return Object.assign((_c: unknown, next: () => Promise<void>) => next(), { early: () => null });
  const { keptMs } = countsFreshness(deps.config.COUNTS_MAX_AGE_S * 1000);
  // Each viewer's writes, by user id. A viewer forgotten here may have written since what is kept
  // for them: forgetting anyone makes every kept answer stale (`forgotten`).
  let forgotten = 0;
  // Only an eviction forgets: lru-cache also disposes of the value a `set` replaces, which is every
  // write's count going up, and would make every reader's kept pages stale at each write by anyone.
  const writesOf = new LRUCache<string, number>({
    max: 10_000,
    dispose: (_value, _key, reason) => {
      if (reason === 'evict') forgotten++;
    },
  });

  /** The page read a GET of `path` is, if the memo may keep it. */
  const readOf = (path: string, cookie: string | undefined) =>
    path.endsWith('.data') || FLASH_COOKIE.test(cookie ?? '') ? undefined : pages.find((candidate) => candidate.pattern.test(path));
  const keyOf = (user: SessionUser, url: string, acceptLanguage: string | undefined) =>
    `${user.id}\n${user.name}\n${user.email}\n${user.image ?? ''}\n${url}\n${acceptLanguage ?? ''}`;
  const stateOf = (user: SessionUser) => ({ all: changes.all + forgotten * 2 ** 32, own: changes.of(user.id), writes: writesOf.get(user.id) ?? 0, at: deps.now().getTime() });
  /**
   * The entry under `key`, with its template, if nothing it shows can have changed since it was
   * sent. Entries are kept beside the render memo's templates, within its bound, and name their
   * template: one the memo no longer holds is a miss.
   */
  const freshEntry = (key: string, versions: PageVersions, state: ReturnType<typeof stateOf>) => {
    const entry = memo.beside(key) as Entry | undefined;
    const fresh =
      entry &&
      entry.versions.blog === versions.blog &&
      entry.versions.writer === versions.writer &&
      entry.versions.lists === versions.lists &&
      entry.versions.sessions === versions.sessions &&
      entry.all === state.all &&
      entry.own === state.own &&
      entry.writes === state.writes &&
      (!listener || listener.answering) &&
      state.at - entry.at < entry.keptFor;
    const template = fresh ? memo.held(entry.answer.memoKey) : undefined;
    return template ? { entry: entry!, template } : undefined;
  };
  /**
   * The bytes every answer of the entry sends: the page in `encoding` (made on the first answer that
   * asks, counted against the bound) when the client takes one and the chain would compress it, else
   * the page filled from its template. The chain compresses a body over the sync bound per request.
   */
  const bodyOf = (key: string, entry: Entry, template: PageTemplate, acceptEncoding: string | undefined) => {
    const { answer } = entry;
    const type = answer.headers.find(([name]) => name === 'content-type')?.[1] ?? '';
    // A body is the length of its template but for the values, which the memo fills the same each time.
    const chainCompresses = wouldCompress(type, template.size, answer.status);
    const compressible = chainCompresses && compressesNow(template.size);
    entry.sent ??= sentHeaders(answer.headers, chainCompresses);
    const encoding = compressible ? pickEncoding(acceptEncoding) : null;
    const made = encoding ? entry.encoded[encoding] : undefined;
    if (made) return { body: made, encoding };
    const body = keptPage(template, answer.values);
    if (!body || !encoding) return { body, encoding: null };
    const packed = compressNow(body, encoding, 'kept');
    entry.encoded[encoding] = packed;
    entry.size += packed.length;
    // Counted again at its new size.
    memo.keepBeside(key, entry, entry.size);
    return { body: packed, encoding };
  };
  /** The headers of an answer of `entry` sending `body`. */
  const headersOf = (entry: Entry, body: Buffer, encoding: 'br' | 'gzip' | null) => {
    const headers: Record<string, string> = { ...entry.sent, 'content-length': String(body.length) };
    if (encoding) headers['content-encoding'] = encoding;
    return headers;
  };

  const early = (request: EarlyRequest, userOf: () => SessionUser | null | undefined): EarlyViewerAnswer | null => {
    // A conditional request is the chain's, as for the page cache: one place decides on a 304.
    if (request.header('if-none-match') !== undefined) return null;
    const read = readOf(request.path, request.header('cookie'));
    if (!read) return null;
    const user = userOf();
    if (!user) return null;
    const versions = knownVersions(deps.database, read.cache === 'blog' ? blogOf(read, request.path) : null);
    if (!versions) return null;
    const key = keyOf(user, request.url, request.header('accept-language'));
    const found = freshEntry(key, versions, stateOf(user));
    if (!found) return null;
    const { entry, template } = found;
    // Below the compression's least length, whether the filled body reaches it is the chain's.
    if (template.size < 1024) return null;
    // A body over the sync bound is compressed by the chain per request: that answer is its own.
    if (!compressesNow(template.size) && pickEncoding(request.header('accept-encoding'))) return null;
    const { body, encoding } = bodyOf(key, entry, template, request.header('accept-encoding'));
    if (!body) return null;
    tallies.renderMemo.hits++;
    const requestId = requestIdOf(request.header('x-request-id'));
    return { status: entry.answer.status, headers: headersOf(entry, body, encoding), body, scriptSources: entry.scriptSources, requestId };
  };

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const user = c.get('user');
    const method = c.req.method;
    if (!user) return next();
    if (method !== 'GET' && method !== 'HEAD') {
      try {
        await next();
      } finally {
        writesOf.set(user.id, (writesOf.get(user.id) ?? 0) + 1);
      }
      return;
    }
    const path = c.req.path;
    const read = method === 'GET' ? readOf(path, c.req.header('cookie')) : undefined;
    if (!read) return next();

    const key = keyOf(user, c.req.url, c.req.header('accept-language'));
    // Read before rendering, as the page cache does: a write during the render leaves the new
    // entry stale at once rather than filed under what it no longer shows.
    const versions = await readCurrentVersions(deps.database, read.cache === 'blog' ? blogOf(read, path) : null);
    const state = stateOf(user);
    const found = freshEntry(key, versions, state);
    if (found) {
      const { entry } = found;
      const { body, encoding } = bodyOf(key, entry, found.template, c.req.header('accept-encoding'));
      if (body) {
        tallies.renderMemo.hits++;
        c.set('scriptSources', entry.scriptSources);
        return new Response(body as Uint8Array<ArrayBuffer>, { status: entry.answer.status, headers: headersOf(entry, body, encoding) });
      }
    }
    const capture: ViewerCapture = {};
    c.set('viewerCapture', capture);
    await next();
    if (capture.answer && c.res.status === 200 && !c.res.headers.has('set-cookie')) {
      const { template, ...answer } = capture.answer;
      // Its answers hold nothing the client sent: a request id of the client's own is replaced.
      if (answer.requestIdSlot >= 0 && answer.values[answer.requestIdSlot] === c.req.header('x-request-id')) {
        answer.values = answer.values.with(answer.requestIdSlot, randomUUID());
      }
      const page = keptPage(template, answer.values);
      if (!page) return;
      const size = ENTRY_BYTES + key.length + answer.values.reduce((sum, value) => sum + value.length, 0);
      const type = answer.headers.find(([name]) => name === 'content-type')?.[1] ?? '';
      const entry: Entry = { answer, versions, ...state, keptFor: keptSpan(keptMs), scriptSources: scriptSourcesOf(page, type), encoded: {}, size };
      memo.keepBeside(key, entry, size);
    }
  };
  return Object.assign(middleware, { early });
}

const NONCE_ATTRIBUTE = Buffer.from(' nonce="');

/**
 * The page of an entry as each of its answers sends it: `values` (the request id of the render it
 * was kept from among them) written in, and its nonce attributes left out, null when the nonce
 * stands anywhere but in a ` nonce="…"` attribute (such a page is not kept). The parts are views
 * of the template's, not copies.
 */
function keptPage(template: PageTemplate, values: readonly string[]): Buffer | null {
  const nonceSlot = values.length;
  const parts = [...template.parts];
  for (let i = 0; i < template.slots.length; i++) {
    if (template.slots[i] !== nonceSlot) continue;
    const before = parts[i]!;
    const after = parts[i + 1]!;
    if (!before.subarray(-NONCE_ATTRIBUTE.length).equals(NONCE_ATTRIBUTE) || after[0] !== 0x22) return null;
    parts[i] = before.subarray(0, before.length - NONCE_ATTRIBUTE.length);
    parts[i + 1] = after.subarray(1);
  }
  return fillTemplate({ ...template, parts }, [...values, '']);
}

/**
 * The headers the chain sends with an entry sent again, but for the length, the encoding, the
 * request id and the security headers: the entry's own, `X-Render: again` (sent again without the
 * loaders; a kept render that ran them says `kept`), the page cache's private Cache-Control
 * when the page set none, and the compression middleware's Vary.
 */
function sentHeaders(own: readonly [string, string][], compressible: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  // Lower case, as Headers gives them: one name, one value, as the chain's Headers would join them.
  for (const [name, value] of own) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  headers['x-render'] = 'again';
  headers['cache-control'] ??= PRIVATE_CACHE_CONTROL;
  if (compressible && !/accept-encoding/i.test(headers.vary ?? '')) headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  return headers;
}
