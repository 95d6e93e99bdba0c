import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { scrollToElement, useSharedBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { useServer } from '../support/server';
import { MESSAGES } from '~/lib/texts/messages';
import { signUp } from '../support/auth';
import { seedBlogs } from '../support/home-seed';

/**
 * Reduced motion (docs/product.md#motion): a visitor who prefers reduced motion sees nothing move — not
 * the hero, the gallery marquee, the count-up counters, toasts, dialogs or menus — on any screen.
 * The same pages with motion allowed do move, which shows the check can tell the difference.
 */

const server = useServer();
const browser = useSharedBrowser();
let blogId: string;

beforeAll(async () => {
  const writer = await browser.newContext();
  await signUp(writer, server.url, { name: 'Writer' });
  [blogId] = (await seedBlogs(writer, server.url, [{ title: 'A still evening' }, { title: 'Another still evening' }])) as [string];
  await writer.close();
});

/**
 * Animations and transitions on the page that last longer than 1 ms (endless ones included),
 * described. Scroll-driven ones (daisyUI's scroll lock under a modal) move nothing on their own.
 */
function moving(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.timeline === document.timeline && Number(a.effect?.getComputedTiming().activeDuration ?? 0) > 1)
      .map((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target as HTMLElement | null;
        const what = a instanceof CSSTransition ? `transition of ${a.transitionProperty}` : a instanceof CSSAnimation ? `animation ${a.animationName}` : 'script animation';
        return `${what} on ${target?.tagName.toLowerCase()}.${[...(target?.classList ?? [])].join('.')}`;
      }),
  );
}

/** Scrolls through the whole page, so every section that waits to come into view does. */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y <= document.body.scrollHeight; y += 300) {
      window.scrollTo(0, y);
      await new Promise(requestAnimationFrame);
    }
  });
}

async function openPage(context: BrowserContext, path: string, width: keyof typeof VIEWPORTS = 'desktop') {
  const page = await context.newPage();
  await page.setViewportSize(VIEWPORTS[width]);
  await page.goto(`${server.url}${path}`);
  await waitForHydration(page);
  return page;
}

/** The product's fixed achievements (docs/decisions/051). */
const FIGURES = ['24000+', '70%', '8000+', '60'];

describe('reduced motion', () => {
  it('holds the home page still: hero, gallery, counters, hover', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    try {
      const page = await openPage(context, '/');
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
      await page.getByRole('img', { name: 'sunset banner' }).hover({ position: { x: 40, y: 560 } });
      expect(await moving(page)).toEqual([]);
      expect(await page.getByRole('img', { name: 'sunset banner' }).evaluate((img) => getComputedStyle(img).transform)).toBe('none');
      await scrollThrough(page);
      // The counters stand at their final figures and the gallery is a still row, not a marquee.
      expect(await page.getByTestId('achievement-figure').allTextContents()).toEqual(FIGURES);
      expect(await page.getByTestId('gallery-marquee').count()).toBe(0);
      expect(await page.getByTestId('gallery-still').locator('img').count()).toBe(8);
      await page.getByTestId('recent-blog').first().hover();
      expect(await moving(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('holds the stand-alone sections, toasts, dialogs and menus still', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    try {
      for (const path of ['/memoryframe', '/counter', '/allblogs']) {
        const page = await openPage(context, path);
        await scrollThrough(page);
        expect(await moving(page), path).toEqual([]);
        await page.close();
      }
      expect(await (await openPage(context, '/counter')).getByTestId('achievement-figure').allTextContents()).toEqual(FIGURES);

      // A dialog (signed out, liking asks to log in) and the mobile menu.
      const page = await openPage(context, '/allblogs', 'phone');
      await page.getByTestId('like-button').first().click();
      const dialog = page.getByRole('dialog', { name: MESSAGES.loginRequired });
      await dialog.waitFor();
      expect(await moving(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'OK' }).click();
      await page.getByTestId('mobile-menu').locator('summary').click();
      expect(await moving(page)).toEqual([]);

      // A toast: it appears and later leaves without sliding or fading.
      await signUp(context, server.url);
      const blog = await openPage(context, `/blogs/${blogId}`);
      await blog.clock.install();
      await blog.getByTestId('like-button').click();
      const toast = blog.getByTestId('toasts').getByText(MESSAGES.likeSuccess);
      await toast.waitFor();
      expect(await moving(blog)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('moves when motion is welcome (the check above can fail)', async () => {
    const context = await browser.newContext({ reducedMotion: 'no-preference' });
    try {
      const page = await openPage(context, '/');
      await scrollToElement(page.getByRole('heading', { name: 'studio frame' }));
      await page.getByTestId('gallery-marquee').waitFor();
      const found = await moving(page);
      expect(found.some((a) => a.startsWith('animation') && a.includes('rfm-marquee'))).toBe(true);
      await page.reload();
      await waitForHydration(page);
      expect((await moving(page)).some((a) => a.includes('hero-line'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
