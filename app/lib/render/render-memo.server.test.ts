import type { EntryContext } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RenderMemo } from './render-memo.server';
import type { PageTemplate } from './viewer-slots.server';

/** Just what `keyOf` reads of React Router's entry context. */
const contextWith = (loaderData: Record<string, unknown>, extra: { actionData?: unknown; errors?: unknown } = {}) =>
  ({ isSpaMode: false, staticHandlerContext: { loaderData, actionData: extra.actionData ?? null, errors: extra.errors ?? null } }) as unknown as EntryContext;
const blogPage = (blog: Record<string, unknown>) => ({ root: { user: { name: 'slot' } }, 'routes/blog-detail': { blog: { _id: 'b1', likes: 3, views: 10, liked: false, ...blog } } });

describe('RenderMemo.keyOf', () => {
  const memo = new RenderMemo({ maxAgeMs: 25_000, maxBytes: 1024 * 1024 });
  const get = (url = 'http://site/blogs/b1') => new Request(url);
  const key = (data: Record<string, unknown>, request = get(), status = 200, headers = new Headers()) => memo.keyOf(request, status, headers, contextWith(data));

  it('is the same for the same URL and data, and another for a like, a liked state or another URL', () => {
    const base = key(blogPage({}));
    expect(base).toBeTruthy();
    expect(key(blogPage({}))).toBe(base);
    expect(key(blogPage({ likes: 4 }))).not.toBe(base);
    expect(key(blogPage({ liked: true }))).not.toBe(base);
    expect(key(blogPage({}), get('http://site/blogs/b1?page=2'))).not.toBe(base);
  });

  it('leaves view counts out: a kept render may show one up to its age bound old, as every kept page does', () => {
    expect(key(blogPage({ views: 11 }))).toBe(key(blogPage({ views: 10 })));
  });

  it('keeps nothing but a plain GET answered 200 with plain data', () => {
    expect(key(blogPage({}), new Request('http://site/blogs/b1', { method: 'POST' }))).toBeNull();
    expect(key(blogPage({}), get(), 404)).toBeNull();
    expect(key(blogPage({}), get(), 200, new Headers({ 'set-cookie': 'flash=1' }))).toBeNull();
    expect(memo.keyOf(get(), 200, new Headers(), contextWith(blogPage({}), { actionData: { ok: true } }))).toBeNull();
    expect(key(blogPage({ later: Promise.resolve(1) }))).toBeNull();
    expect(key(blogPage({ tags: new Map() }))).toBeNull();
  });

  it('keeps nothing when turned off (RENDER_MEMO_MB=0)', () => {
    const off = new RenderMemo({ maxAgeMs: 25_000, maxBytes: 0 });
    expect(off.enabled).toBe(false);
    expect(off.keyOf(get(), 200, new Headers(), contextWith(blogPage({})))).toBeNull();
  });
});

describe('RenderMemo, renders and the answers kept beside them', () => {
  const templateOf = (kb: number): PageTemplate => ({ parts: [Buffer.alloc(kb * 1024)], slots: [], contexts: [], size: kb * 1024 });

  it('holds each template once: answers naming one count only their own bytes, within twice RENDER_MEMO_MB', () => {
    // 1 MB: 2 MB for both. Thirty 59 KB pages (1.7 MB) and an answer for each fit; counted twice they would not.
    const memo = new RenderMemo({ maxAgeMs: 60_000, maxBytes: 1024 * 1024 });
    for (let i = 0; i < 30; i++) {
      memo.set(`page${i}`, templateOf(59));
      memo.keepBeside(`reader\npage${i}`, { memoKey: `page${i}` }, 1024);
    }
    for (let i = 0; i < 30; i++) {
      expect(memo.held(`page${i}`)?.size).toBe(59 * 1024);
      expect(memo.beside(`reader\npage${i}`)).toEqual({ memoKey: `page${i}` });
    }
  });

  it('forgets the least recently used first, a template as an answer, so an answer may outlive the template it names', () => {
    const memo = new RenderMemo({ maxAgeMs: 60_000, maxBytes: 256 * 1024 });
    memo.set('first', templateOf(200));
    memo.keepBeside('reader\nfirst', { memoKey: 'first' }, 1024);
    memo.set('second', templateOf(200));
    memo.set('third', templateOf(200));
    expect(memo.held('first')).toBeUndefined();
    expect(memo.beside('reader\nfirst')).toEqual({ memoKey: 'first' });
    expect(memo.held('third')).toBeDefined();
  });
});
