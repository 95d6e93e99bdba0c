import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { EntryContext } from 'react-router';
import { tallies } from './metrics.server';
import type { PageTemplate } from './viewer-slots.server';

/**
 * Signed-in pages rendered once per distinct content (docs/decisions/043). A page is a function
 * of its URL and its routes' loader data; the viewer's own strings are placeholders in that data
 * (app/lib/render/viewer-slots.server.ts), so viewers who see the same blog with the same states (liked
 * or not, following or not, their own blog or not) share one kept render. What a loader reads
 * is always read anew: the memo only skips React's render of data already seen, and a change of
 * anything shown is a change of the data, so of the key. `maxAgeMs` bounds what a render takes
 * from the clock rather than the data (the footer's year), as for kept anonymous pages.
 */
export class RenderMemo {
  /**
   * The renders, and beside them what the viewer memo keeps of each reader's last answer (its
   * values and headers, naming its template by key: server/http/middleware/viewer-memo.server.ts).
   * One bound for both, each template held and counted once (decision 086).
   */
  private readonly kept: LRUCache<string, Held> | null;

  /**
   * `maxBytes`: RENDER_MEMO_MB, once for the renders and once for the readers' answers, as the two
   * memos were bounded when each counted the templates it held (0 keeps nothing).
   */
  constructor({ maxAgeMs, maxBytes }: { maxAgeMs: number; maxBytes: number }) {
    this.kept = maxBytes > 0 ? new LRUCache<string, Held>({ maxSize: 2 * maxBytes, sizeCalculation: (held) => held.size, ttl: maxAgeMs }) : null;
    tallies.held.set('render_memo', () => this.kept?.calculatedSize ?? 0);
  }

  /** Whether renders are kept at all: without, signed-in pages are rendered plainly, with no slots. */
  get enabled(): boolean {
    return this.kept !== null;
  }

  /**
   * The key of a finished render of this request, or null when it must not be kept: anything
   * but a plain GET answered 200 with data alone (no action data, no errors, no cookie set, no
   * data still to come).
   */
  keyOf(request: Request, status: number, headers: Headers, context: EntryContext): string | null {
    const { loaderData, actionData, errors } = context.staticHandlerContext;
    if (!this.kept || request.method !== 'GET' || status !== 200 || actionData || errors || context.isSpaMode || headers.has('set-cookie')) return null;
    let json: string;
    try {
      json = JSON.stringify(loaderData, keepable);
    } catch {
      return null;
    }
    return createHash('sha256').update(request.url).update('\0').update(json).digest('base64url');
  }

  get(key: string): PageTemplate | undefined {
    const template = this.kept?.get(RENDER + key)?.template;
    if (template) tallies.renderMemo.hits++;
    else tallies.renderMemo.misses++;
    return template;
  }

  set(key: string, template: PageTemplate): void {
    this.kept?.set(RENDER + key, { template, size: template.size + 256 });
  }

  /**
   * The render under `key` for an answer sent again, while it is held: past its age bound too,
   * since the answer that names it has an age bound of its own (as when it held the template).
   */
  held(key: string): PageTemplate | undefined {
    return this.kept?.get(RENDER + key, { allowStale: true, noDeleteOnStaleGet: true })?.template;
  }

  /** Keeps `value`, of `size` bytes of its own, beside the renders and within their bound. */
  keepBeside(key: string, value: unknown, size: number): void {
    this.kept?.set(BESIDE + key, { value, size });
  }

  beside(key: string): unknown {
    return this.kept?.get(BESIDE + key)?.value;
  }
}

/** A render, or a value kept beside the renders; `size` is what it counts against the bound. */
interface Held {
  template?: PageTemplate;
  value?: unknown;
  size: number;
}
const RENDER = 'r';
const BESIDE = 'b';

/**
 * Loader data that JSON would misstate (a promise, a Map, a class instance) makes the page
 * unkeepable; a Date arrives here as its ISO string. A view count is left out of the key: a kept
 * render may show one up to the memo's age bound old, the rule every kept page follows (decision
 * 024), where keying on it would render a popular blog anew at every flush of views.
 */
function keepable(key: string, value: unknown): unknown {
  if (key === 'views' && typeof value === 'number') return undefined;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    throw new TypeError('not plain data');
  }
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') throw new TypeError('not plain data');
  return value;
}
