import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { openBrowser, useBrowsers, waitForHydration } from '../support/browser';
import { seedBlogs } from '../support/home-seed';
import { useServer } from '../support/server';

/**
 * At most 120 KB of gzipped JavaScript on the home page
 * (docs/product.md#speed-safety-and-accessibility, docs/decisions/038). The figure is measured,
 * not written down: a real browser loads the page
 * from the production build, and every script it fetched before the reader scrolls is read back
 * from build/client and gzipped (level 9, as the build precompresses), the way
 * `npm run lighthouse` counts it. The author page is held to the same budget: a form's limits
 * imported from a zod schema once put zod (23 KB) on it.
 */
const BUDGET_KB = 120;
const CLIENT_BUILD = path.resolve('build/client');

const server = useServer();
const browsers = useBrowsers();
let blogId: string;

beforeAll(async () => {
  const seeder = await openBrowser();
  await signUp(seeder.context, server.url, { name: 'Weigher' });
  [blogId] = (await seedBlogs(seeder.context, server.url, [{ title: 'A light page' }])) as [string];
  await seeder.close();
});

/** The scripts a page loads before any scrolling, each gzipped from the build's own file. */
async function scriptsOf(pagePath: string): Promise<{ file: string; gzipBytes: number }[]> {
  const { page } = await browsers.open();
  const urls = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') urls.add(new URL(request.url()).pathname);
  });
  await page.goto(`${server.url}${pagePath}`);
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  return [...urls].map((file) => ({ file, gzipBytes: gzipSync(readFileSync(path.join(CLIENT_BUILD, file)), { level: 9 }).length }));
}

const kb = (scripts: { gzipBytes: number }[]) => scripts.reduce((sum, s) => sum + s.gzipBytes, 0) / 1024;

describe('JavaScript per page', () => {
  it(`the home page loads at most ${BUDGET_KB} KB of gzipped JavaScript`, async () => {
    const scripts = await scriptsOf('/');
    // React DOM and React Router are always among them: an empty list would mean nothing was measured.
    expect(scripts.length).toBeGreaterThan(5);
    expect(kb(scripts), scripts.map((s) => `${s.file} ${s.gzipBytes}`).join('\n')).toBeLessThanOrEqual(BUDGET_KB);
  });

  it('an author page stays within the same budget, and no reading page loads zod', async () => {
    const blogHtml = await (await fetch(`${server.url}/blogs/${blogId}`)).text();
    const authorPath = /href="(\/authors\/[^"]+)"/.exec(blogHtml)?.[1];
    expect(authorPath).toBeDefined();
    const scripts = await scriptsOf(authorPath!);
    expect(kb(scripts), scripts.map((s) => `${s.file} ${s.gzipBytes}`).join('\n')).toBeLessThanOrEqual(BUDGET_KB);
    // Zod's error messages are in every build of it; only forms that validate in the browser need
    // it, and the blog page's comment form loads it when a reader starts on it.
    for (const p of ['/', authorPath!, `/blogs/${blogId}`, '/allblogs']) {
      const loaded = (await scriptsOf(p)).map((s) => readFileSync(path.join(CLIENT_BUILD, s.file), 'utf8'));
      expect(loaded.some((code) => code.includes('Invalid input: expected')), p).toBe(false);
    }
  });

  it('preloads its scripts at low priority (decision 042)', async () => {
    // Streamed pages are changed the same way (app/lib/render/script-priority.server.test.ts).
    for (const p of ['/', `/blogs/${blogId}`]) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
      expect(preloads.length, p).toBeGreaterThan(5);
      expect(preloads.filter((link) => !link.includes('fetchpriority="low"')), p).toEqual([]);
    }
  });
});
