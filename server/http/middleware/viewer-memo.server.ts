import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { type PageVersions, readCurrentVersions } from '~/db/content-version.server';
import { countsFreshness } from '~/features/blogs/view-counter.server';
import { tallies } from '~/lib/render/metrics.server';
import { fillTemplate, type PageTemplate } from '~/lib/render/viewer-slots.server';
import type { AppDeps, AppEnv } from '../../context.server';
import { blogOf, type KeptRead } from './page-cache.server';

/**
 * A signed-in reader's page, answered again from what was sent them last (decision 059). Decision
 * 043 renders a signed-in page once per distinct content and fills in the viewer's strings, but
 * every request still ran the loaders, React Router's data path and the memo's key: about nine
 * tenths of the CPU of a kept signed-in page. Here the filled template of the last answer is kept
 * per viewer and URL, and sent again (with this request's nonce and id) while nothing it shows
 * can have changed:
 * - the blog's revision (a blog's page), the lists version and the sessions version stand, as
 *   for kept anonymous pages (decision 024), and the viewer is the same person with the same
 *   shown name, email and photo;
 * - nothing was written to a table no version follows (a role, a standing, a subscription…), by
 *   anyone, and nothing to the viewer's own rows (their follows, wishlist, notifications) by
 *   anyone (viewer-writes.server.ts, decision 076);
 * - the viewer sent no write of their own since (any request but GET/HEAD, API or form);
 * - it is younger than the counts' age bound, as every kept page.
 * On SQLite the process sees every write of its own and polls for others'; on PostgreSQL every
 * instance hears every write through its version listener, and answers from the memo only while
 * that listener answers (connected, and its own writes' notifications in): otherwise the page
 * takes the loaders' path.
 */
export interface ViewerAnswer {
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
  answer: ViewerAnswer;
  versions: PageVersions;
  all: number;
  own: number;
  writes: number;
  at: number;
}

const FLASH_COOKIE = /(?:^|;\s*)afterglow\.flash=/;

/** `pageReads`: the kept reads of the build (pageReadsOf); the memo keeps only the pages among them. */
export function viewerMemo(deps: AppDeps, pageReads: readonly KeptRead[] = []): MiddlewareHandler<AppEnv> {
  const pages = pageReads.filter((read) => read.page);
  const changes = deps.database.viewerChanges;
  const listener = deps.database.versionListener;
  const maxBytes = deps.config.RENDER_MEMO_MB * 1024 * 1024;
  if (maxBytes === 0) return (_c, next) => next();
  const { keptMs } = countsFreshness(deps.config.COUNTS_MAX_AGE_S * 1000);
  // Templates are shared with the render memo, so this mostly holds references; bounded as it is.
  const kept = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (entry) => entry.answer.template.size + 512 });
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

  return async (c, next) => {
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
    const read = method === 'GET' && !path.endsWith('.data') ? pages.find((candidate) => candidate.pattern.test(path)) : undefined;
    if (!read || FLASH_COOKIE.test(c.req.header('cookie') ?? '')) return next();

    const key = `${user.id}\n${user.name}\n${user.email}\n${user.image ?? ''}\n${c.req.url}\n${c.req.header('accept-language') ?? ''}`;
    // Read before rendering, as the page cache does: a write during the render leaves the new
    // entry stale at once rather than filed under what it no longer shows.
    const versions = await readCurrentVersions(deps.database, read.cache === 'blog' ? blogOf(read, path) : null);
    const state = { all: changes.all + forgotten * 2 ** 32, own: changes.of(user.id), writes: writesOf.get(user.id) ?? 0, at: deps.now().getTime() };
    const entry = kept.get(key);
    if (
      entry &&
      entry.versions.blog === versions.blog &&
      entry.versions.lists === versions.lists &&
      entry.versions.sessions === versions.sessions &&
      entry.all === state.all &&
      entry.own === state.own &&
      entry.writes === state.writes &&
      (!listener || listener.answering) &&
      state.at - entry.at < keptMs
    ) {
      tallies.renderMemo.hits++;
      const { answer } = entry;
      const values = [...answer.values];
      if (answer.requestIdSlot >= 0) values[answer.requestIdSlot] = c.get('requestId');
      values.push(c.get('nonce'));
      const body = fillTemplate(answer.template, values);
      const headers = new Headers(answer.headers);
      headers.set('Content-Length', String(body.length));
      // `again`: sent again without the loaders (a kept render that ran them says `kept`).
      headers.set('X-Render', 'again');
      return new Response(body as Uint8Array<ArrayBuffer>, { status: answer.status, headers });
    }
    const capture: ViewerCapture = {};
    c.set('viewerCapture', capture);
    await next();
    if (capture.answer && c.res.status === 200 && !c.res.headers.has('set-cookie')) kept.set(key, { answer: capture.answer, versions, ...state });
  };
}
