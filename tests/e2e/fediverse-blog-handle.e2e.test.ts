import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { SCREENSHOT_DIR, screenshot, scrollToElement, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { useFediServerAndPeer } from '../support/fedi-e2e';
import type { RunningServer } from '../support/server';

const { open } = useBrowsers();

describe("the writer's fediverse handle under her post (docs/decisions/088)", () => {
  const running = useFediServerAndPeer();
  let server: RunningServer;
  let postPath: string;
  let host: string;
  beforeAll(async () => {
    server = running.server();
    host = new URL(server.url).host;
    const writer = await open({ viewport: VIEWPORTS.desktop });
    await signUp(writer.context, server.url, { name: 'Iris Handle' });
    const photo = await uploadPhoto(writer.context, server.url);
    const paragraph = 'The tide went out slowly and the boats leaned on the sand, one after another, until the harbour was a field. '.repeat(4);
    const id = await seedBlog(writer.context, server.url, { title: 'Low tide', photo, long_description: Array.from({ length: 12 }, () => paragraph).join('\n\n') });
    postPath = `/blogs/${id}`;
    await writer.close();
  });

  it('is in the page as the server sends it, its code loads near it, and it copies and sends a reader to their server', async () => {
    const reader = await open({ viewport: VIEWPORTS.desktop });
    const page = reader.page;
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}${postPath}`);
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    const box = page.getByTestId('fediverse-handle');
    expect(await box.textContent()).toContain(`@iris_handle@${host}`);
    // Before the reader comes near it, it is the server's markup: nothing of its code ran.
    expect(await page.locator('[data-live] [data-testid="fediverse-handle"]').count()).toBe(0);
    const before = scripts.length;
    expect(scripts.filter((file) => file.includes('fediverse-handle'))).toEqual([]);
    // A federating site's blog page keeps the page-weight test's budget (123 KB gzipped before scrolling, decision 077).
    const gzipKb = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(path.resolve('build/client', `.${file}`)), { level: 9 }).length, 0) / 1024;
    expect(gzipKb).toBeLessThanOrEqual(123);
    console.log(`blog page with a fediverse handle: ${gzipKb.toFixed(1)} KB of gzipped JavaScript before scrolling`);

    await scrollToElement(box);
    await page.locator('[data-live] [data-testid="fediverse-handle"]').waitFor();
    expect(scripts.slice(before).some((file) => file.includes('fediverse-handle'))).toBe(true);
    await reader.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await box.getByRole('button', { name: `Copy @iris_handle@${host}` }).click();
    await box.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`@iris_handle@${host}`);

    // Follow from your server: the form names the handle and the reader's server.
    await box.getByLabel('Follow from your server').fill('mastodon.example');
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().includes('/follow-from-server')), box.getByRole('button', { name: 'Go' }).click()]);
    const asked = new URL(request.url());
    expect([asked.searchParams.get('account'), asked.searchParams.get('server')]).toEqual([`@iris_handle@${host}`, 'mastodon.example']);
  });

  it('at phone and desktop width, in both themes', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [width, viewport] of [['desktop', VIEWPORTS.desktop], ['phone', VIEWPORTS.phone]] as const) {
        const reader = await open({ viewport, colorScheme });
        await reader.page.goto(`${server.url}${postPath}`);
        await waitForHydration(reader.page);
        const box = reader.page.getByTestId('fediverse-handle');
        await scrollToElement(box);
        await reader.page.locator('[data-live] [data-testid="fediverse-handle"]').waitFor();
        // The handle and the form fit the width: nothing runs off the side.
        const overflow = await reader.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        // The handle as the reader meets it: the screen around it, and the whole page.
        await reader.page.screenshot({ path: `${SCREENSHOT_DIR}/fediverse-blog-handle-${width}-${colorScheme}.png` });
        await screenshot(reader.page, `fediverse-blog-handle-page-${width}-${colorScheme}`);
        await reader.close();
      }
    }
  });
});
