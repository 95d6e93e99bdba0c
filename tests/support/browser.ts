import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Browser as PlaywrightBrowser, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { late } from './late';

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve('tests/e2e/screenshots');

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
} as const;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * One Chromium process for tests that need several contexts at once (signed out and signed in
 * side by side) without paying a browser start for each.
 */
export function launchBrowser(): Promise<PlaywrightBrowser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface BrowserOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  reducedMotion?: 'reduce' | 'no-preference';
  javaScriptEnabled?: boolean;
  /** The browser's language and formatting locale (navigator.language, Intl defaults). */
  locale?: string;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors, and uncaught exceptions: tests assert it stays empty. */
  errors: string[];
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile (the machine has no Playwright browsers). */
export async function openBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'afterglow-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? VIEWPORTS.desktop,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    ...(options.locale ? { locale: options.locale } : {}),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
  };
  watch(page);
  context.on('page', watch);
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Waits until React has hydrated the page (the root sets this flag once mounted). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/**
 * Scrolls the element to the middle of the viewport at once. Playwright's scrollIntoViewIfNeeded
 * waits for the element to stand still, and under the site's smooth scrolling (motion welcome)
 * each of its retries starts the glide again: on a busy machine it never settles.
 */
export async function scrollToElement(locator: Locator) {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
}

/**
 * Brings a section whose code loads near the viewport (app/components/deferred-section.tsx: a
 * post's end and comments) into view and waits until its code runs, for a test of what that code
 * adds (checks before sending, dialogs); before then its forms post as they do without JavaScript.
 */
export async function scrollToLive(page: Page, selector: string) {
  await scrollToElement(page.locator(selector));
  await page.locator(`[data-live] ${selector}`).waitFor();
}

/**
 * Browsers for the tests of the enclosing file or describe block: each test opens what it needs
 * with `open()`; after the test they are closed and the test fails on any console error or
 * uncaught exception they logged (each is a bug somebody missed), except lines matching `allowed`, or a pattern the
 * test itself named with `allow()` (a refused request it makes on purpose, which Chromium logs
 * as "the server responded with a status of …": see `refused`).
 */
export function useBrowsers({ allowed }: { allowed?: RegExp } = {}) {
  const open: Browser[] = [];
  let allowedInTest: RegExp[] = [];
  afterEach(async () => {
    const patterns = [...(allowed ? [allowed] : []), ...allowedInTest];
    allowedInTest = [];
    const errors = open.flatMap((b) => b.errors).filter((e) => !patterns.some((re) => re.test(e)));
    await Promise.all(open.splice(0).map((b) => b.close()));
    expect(errors).toEqual([]);
  });
  return {
    async open(options: BrowserOptions = {}): Promise<Browser> {
      const browser = await openBrowser(options);
      open.push(browser);
      return browser;
    },
    /** Error lines this test expects (cleared after it). */
    allow(...patterns: RegExp[]) {
      allowedInTest.push(...patterns);
    },
  };
}

/** The line Chromium logs for a response with one of these statuses. */
export const refused = (...statuses: number[]) => new RegExp(`the server responded with a status of (${statuses.join('|')}) `);

/** One Chromium for the whole file or describe block (contexts are made from it), closed after. */
export function useSharedBrowser(): PlaywrightBrowser {
  const browser = late<PlaywrightBrowser>('the shared browser');
  beforeAll(async () => {
    browser.set(await launchBrowser());
  });
  afterAll(async () => browser.get()?.close());
  return browser.handle;
}

/**
 * Colour transitions started by a theme switch, hero lines and fades have run their course (axe
 * reads computed colours: mid-transition they are neither theme's); endless ones (the marquee),
 * held ones (a toast) and scroll-driven ones (daisyUI's scroll lock under a modal) go on.
 */
export async function finiteAnimationsDone(page: Page) {
  // getAnimations() flushes pending style changes first, so a transition just started is included.
  await page.evaluate(async () => {
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.timeline === document.timeline && a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
}
