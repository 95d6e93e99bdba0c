import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './auth';
import { screenshot, scrollToElement, useBrowsers, VIEWPORTS, waitForHydration } from './browser';
import { TEST_DIALECTS } from './databases';
import { type ImageServer, startImageServer } from './image-server';
import {
  ARABIC_TEXT,
  ARABIC_TITLE,
  DEFAULT_MAPPING,
  EMOJI_TITLE,
  FIRST_PICTURE,
  HEBREW_TEXT,
  HEBREW_TITLE,
  LONG_TITLE_SHOWN,
  ODD,
  pictureRequests,
  PICTURES,
  planTotals,
  servePictures,
} from './import-formats';
import { useServer } from './server';
import { tempDirs } from './temp-dirs';

/**
 * The writer's "Import posts" screen walked as a person walks it: choose the archive, read what
 * the scan found and the category mapping, import, watch the bar to the report. What each step
 * showed is answered for the test to check.
 */
export interface ImportSeen {
  /** The scan's sentence ("Found N posts … in this X archive. …", or "This X list has N subscribers. …" for a list alone). */
  found: string;
  /** The line under the run's name while it waits for review. */
  review: string;
  /** Each mapping line's source name → the category its select holds. */
  mapping: Record<string, string>;
  /** A source without categories: the sentence saying so, and the one select's category (docs/decisions/090). */
  noCategories: { text: string; category: string } | null;
  /** The review's line on subscribers: how many come, how many stay out. */
  subscribers: string | null;
  /** The report's line on subscribers. */
  reportSubscribers: string | null;
  /** The progress bar's values read while the import ran (the last is the bar at the end). */
  progress: number[];
  /** The bar's maximum at the end. */
  total: number;
  status: string;
  /** The report's line on posts, comments, pictures and old links (none for a subscriber list alone, docs/decisions/095). */
  report: string | null;
  /** Each "did not come, and why" line. */
  skipped: string[];
}

/** The text of the element with this test id, or null when the page has none. */
const textOf = async (page: Page, testId: string) => ((await page.getByTestId(testId).count()) ? ((await page.getByTestId(testId).textContent()) ?? '') : null);

/**
 * `shot`: the review (before importing) is kept as screenshots `<shot>-review-desktop` and
 * `<shot>-review-phone`; `choose`: source name → the category the importer picks instead.
 */
export async function importThroughScreen(page: Page, baseUrl: string, file: string, options: { shot?: string; choose?: Record<string, string> } = {}): Promise<ImportSeen> {
  await page.goto(`${baseUrl}/profile/import`);
  await waitForHydration(page);
  // The file chooser offers the archive: its kind is among those the field accepts.
  const accepted = ((await page.getByLabel('Archive').getAttribute('accept')) ?? '').split(',');
  expect(accepted, 'the chooser offers the archive').toContain(path.extname(file).toLowerCase());
  await page.getByLabel('Archive').setInputFiles(file);
  await page.getByRole('button', { name: 'Read the archive' }).click();
  await page.getByRole('button', { name: 'Import', exact: true }).waitFor({ timeout: 120_000 });
  const review = (await page.getByTestId('import-status').textContent()) ?? '';
  const found = (await page.getByText(/^(Found \d+ posts|This \w+ list has)/).textContent()) ?? '';
  const mapping: Record<string, string> = {};
  for (const line of await page.locator('fieldset label').all()) {
    mapping[(await line.locator('span').textContent()) ?? ''] = await line.locator('select').inputValue();
  }
  const none = page.getByTestId('import-no-categories');
  const noCategories = (await none.count()) ? { text: (await none.locator('p').textContent()) ?? '', category: await none.getByLabel('Category of every post').inputValue() } : null;
  const subscribers = await textOf(page, 'import-subscribers');
  for (const [name, category] of Object.entries(options.choose ?? {})) await page.getByLabel(name).selectOption(category);
  if (options.shot) {
    await screenshot(page, `${options.shot}-review-desktop`);
    const viewport = page.viewportSize();
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, `${options.shot}-review-phone`);
    if (viewport) await page.setViewportSize(viewport);
  }
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const progress: number[] = [];
  const report = page.getByTestId('import-report');
  // The page polls every 1.5 s; the bar is read between polls until the report replaces the wait.
  while (!(await report.isVisible())) {
    const value = await page
      .getByTestId('import-progress')
      .getAttribute('value', { timeout: 1000 })
      .catch(() => null);
    if (value !== null && Number(value) !== progress.at(-1)) progress.push(Number(value));
    await page.waitForTimeout(250);
  }
  const bar = page.getByTestId('import-progress');
  const last = Number(await bar.getAttribute('value'));
  if (last !== progress.at(-1)) progress.push(last);
  const skippedToggle = page.getByText(/did not come, and why$/);
  let skipped: string[] = [];
  if (await skippedToggle.isVisible()) {
    await skippedToggle.click();
    skipped = (await report.locator('li').allTextContents()).map((line) => line.trim());
  }
  return {
    found,
    review,
    mapping,
    noCategories,
    subscribers,
    reportSubscribers: await textOf(page, 'import-report-subscribers'),
    progress,
    total: Number(await bar.getAttribute('max')),
    status: (await page.getByTestId('import-status').textContent()) ?? '',
    report: await textOf(page, 'import-report-line'),
    skipped,
  };
}

/** How many posts All blogs lists, read as a visitor reads it: the pager's last page, and the cards on it. */
export async function allBlogsCount(page: Page, baseUrl: string): Promise<number> {
  await page.goto(`${baseUrl}/allblogs`);
  const numbers = (await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link').allTextContents().catch(() => [])).map(Number).filter((n) => n > 0);
  const pages = numbers.length ? Math.max(...numbers) : 1;
  if (pages > 1) await page.goto(`${baseUrl}/allblogs?page=${pages}`);
  const cards = await page.getByTestId('blog-grid').locator(':scope > li').count();
  return (pages - 1) * 12 + cards;
}

/** Where an old address now answers: the 301's location (asserted to be one of our posts). */
export async function movedTo(baseUrl: string, oldPath: string): Promise<string> {
  const answer = await fetch(`${baseUrl}${encodeURI(oldPath)}`, { redirect: 'manual' });
  expect(answer.status, `${oldPath} answers 301`).toBe(301);
  const location = answer.headers.get('location')!;
  expect(location).toMatch(/^\/blogs\/[0-9a-f-]{36}$/);
  return location;
}

/** Which edge of its box a one-line block's text sits against: a right-to-left paragraph's is the right. */
export function textSide(block: Locator): Promise<'left' | 'right' | 'both' | 'neither'> {
  return block.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    const left = Math.abs(text.left - box.left) < 2;
    const right = Math.abs(text.right - box.right) < 2;
    return left && right ? 'both' : left ? 'left' : right ? 'right' : 'neither';
  });
}

/** The pictures a post's page shows in its body and cover: each address, and whether our server serves it as an image. */
export async function postPictures(page: Page, baseUrl: string): Promise<{ src: string; type: string | null }[]> {
  const sources = await page.locator('article > figure img, article .text-read img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''));
  const out: { src: string; type: string | null }[] = [];
  for (const src of sources) {
    const absolute = new URL(src, baseUrl);
    const answer = absolute.origin === new URL(baseUrl).origin ? await fetch(absolute) : null;
    out.push({ src, type: answer?.ok ? answer.headers.get('content-type') : null });
  }
  return out;
}

/** One source format's archive and what importing it must show. */
export interface FormatJourney {
  /** Writes the archive into `dir` (the image server is up, its pictures served) and answers its path. */
  archive(images: ImageServer, pictures: Buffer[], dir: string): Promise<string>;
  /** The scan's sentence. */
  found: string;
  /** The category mapping the screen proposes (DEFAULT_MAPPING unless the format names its categories otherwise, or has none). */
  mapping?: Record<string, string>;
  /**
   * A format without categories: the review's sentence saying so, and the category the importer
   * then picks for every post (what All blogs' cards show after; docs/decisions/090).
   */
  noCategories?: { text: string; choose: string };
  /** The review's line on subscribers, and the report's (none when the archive has no subscribers). */
  subscribers?: { review: string; report: string };
  /** More the format's journey does on the same server once the first import is checked (before the second). */
  more?(run: { page: Page; server: { url: string; dataDir: string }; writerEmail: string; images: ImageServer }): Promise<void>;
  /** The report's first line after the first import. */
  report: string;
  /** Lines the "did not come" list must hold (the image server's address is known only then). */
  skipped(images: ImageServer): string[];
  /** The old address post `n` answered at. */
  oldPath(n: number): string;
  /** Pictures asked of the image server (the missing one among them when the format links it). */
  pictureRequests: number;
  /** Every tenth post's thread (WordPress). */
  threads?: boolean;
  /** Screenshots' name prefix. */
  name: string;
  /**
   * Also on PostgreSQL. The journeys differ in the reader, which runs the same on both databases;
   * the writer they share is tested on both by the import and round-trip tests, so one format (the
   * one with threads) takes the browser journey on PostgreSQL too, and the rest keep `npm test` short.
   */
  postgres?: boolean;
}

/**
 * The journey every format takes (on SQLite, and on PostgreSQL where it asks): the writer imports the archive through her
 * screen, then the result is checked screen by screen, and a second import of the same archive
 * changes nothing. One server and one archive per database.
 */
export function describeFormatJourney(title: string, count: number, journey: FormatJourney) {
  const dirs = tempDirs();
  afterAll(() => dirs.removeAll());
  describe.each(TEST_DIALECTS.filter((dialect) => dialect === 'sqlite' || journey.postgres))(`${title} (%s)`, (dialect) => {
    let images: ImageServer;
    let file: string;
    beforeAll(async () => {
      images = await startImageServer();
      const pictures = await servePictures(images);
      file = await journey.archive(images, pictures, dirs.make(`import-${journey.name}-`));
    });
    afterAll(() => images.close());
    const server = useServer({ IMAGE_FETCH_ALLOW_LOOPBACK: 'on' }, dialect);
    const { open } = useBrowsers();
    const visible = planTotals(count).visible;

    it(`imports ${count} posts through the screen; each post, picture and old link checked; a second import changes nothing`, { timeout: 300_000 }, async () => {
      const writer = await open();
      const account = await signUp(writer.context, server.url, { name: 'Mo Ving' });

      const choose: Record<string, string> = journey.noCategories ? { 'Category of every post': journey.noCategories.choose } : {};
      const first = await importThroughScreen(writer.page, server.url, file, { shot: `import-formats-${journey.name}`, choose });
      expect(first.found).toBe(journey.found);
      expect(first.review).toBe('Check how your categories map onto ours, then import.');
      expect(first.mapping).toEqual(journey.mapping ?? DEFAULT_MAPPING);
      // A source without categories says so, and which of ours every post gets: Personal unless changed.
      expect(first.noCategories).toEqual(journey.noCategories ? { text: journey.noCategories.text, category: 'Personal' } : null);
      expect(first.subscribers).toBe(journey.subscribers?.review ?? null);
      expect(first.reportSubscribers).toBe(journey.subscribers?.report ?? null);
      expect(first.status).toBe('Done.');
      expect(first.progress.at(-1)).toBe(first.total);
      expect(first.report).toBe(journey.report);
      expect(first.skipped).toEqual(expect.arrayContaining(journey.skipped(images)));
      expect(pictureRequests(images)).toBe(journey.pictureRequests);
      await screenshot(writer.page, `import-formats-${journey.name}-report`);

      // The writer sees all her posts, the draft among them (Hidden); a visitor sees the published ones.
      expect(await allBlogsCount(writer.page, server.url)).toBe(count);
      const visitor = await open();
      expect(await allBlogsCount(visitor.page, server.url)).toBe(visible);

      // The emoji post, the Arabic and the Hebrew post read as written; the long title is clipped to what a post holds.
      for (const [n, heading, text] of [
        [ODD.emoji, EMOJI_TITLE, null],
        [ODD.arabic, ARABIC_TITLE, ARABIC_TEXT],
        [ODD.hebrew, HEBREW_TITLE, HEBREW_TEXT],
        [ODD.longTitle, LONG_TITLE_SHOWN, null],
      ] as const) {
        await visitor.page.goto(`${server.url}${await movedTo(server.url, journey.oldPath(n))}`);
        const title = visitor.page.locator('article h1');
        expect(await title.textContent()).toBe(heading);
        const paragraph = visitor.page.locator('article .text-read p').first();
        if (text) {
          // Right to left on a left-to-right page: the title takes its direction from its words, the
          // summary and the body's paragraph sit against the right edge.
          expect(await paragraph.textContent()).toBe(text);
          expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
          expect(await textSide(visitor.page.locator('article header p.text-lede'))).toBe('right');
          expect(await textSide(paragraph)).toBe('right');
        } else if (n === ODD.emoji) {
          expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
          expect(await textSide(paragraph)).toBe('left');
        }
        if (n === ODD.arabic) await screenshot(visitor.page, `import-formats-${journey.name}-arabic`);
      }

      // Broken markup comes as its words; an empty body reads as the post's summary.
      await visitor.page.goto(`${server.url}${await movedTo(server.url, journey.oldPath(ODD.broken))}`);
      expect(await visitor.page.locator('article .text-read').textContent()).toContain('stray tag');
      await visitor.page.goto(`${server.url}${await movedTo(server.url, journey.oldPath(ODD.empty))}`);
      expect(await visitor.page.locator('article h1').textContent()).toBe(`Moving day ${ODD.empty}`);

      // Pictures are ours now, those from the archive and those fetched alike: served by this site as images.
      for (const n of [FIRST_PICTURE + 1, FIRST_PICTURE + PICTURES - 1]) {
        await visitor.page.goto(`${server.url}${await movedTo(server.url, journey.oldPath(n))}`);
        const shown = await postPictures(visitor.page, server.url);
        expect(shown.length, `post ${n} shows its picture`).toBeGreaterThan(0);
        for (const picture of shown) expect(picture, `post ${n}'s picture is served here`).toEqual({ src: expect.not.stringContaining(images.url), type: expect.stringMatching(/^image\//) });
      }

      if (journey.threads) {
        // A thread comes as it was: the reader, the writer's reply under it, the answer under that.
        await visitor.page.goto(`${server.url}${await movedTo(server.url, journey.oldPath(20))}`);
        const thread = visitor.page.locator('[data-testid="comment"]');
        await thread.first().waitFor();
        const comments = await thread.evaluateAll((items) =>
          items.map((li) => {
            const text = li.querySelector('p.whitespace-pre-line')!;
            return [li.getAttribute('data-depth'), text.textContent, getComputedStyle(text).direction];
          }),
        );
        expect(comments).toEqual([
          ['0', 'First comment on 20 🌅', 'ltr'],
          ['1', 'Thank you, reader 20.', 'ltr'],
          ['2', `${ARABIC_TEXT} 20`, 'rtl'],
        ]);
        // Each author, known here by name only, is named once (no handle of her own beside it).
        expect(await thread.evaluateAll((items) => items.map((li) => li.querySelector('p.font-semibold')?.textContent?.split(/Reader 20|Mo Ving/).length))).toEqual([2, 2, 2]);
        await scrollToElement(thread.first());
        await screenshot(visitor.page, `import-formats-${journey.name}-thread`);
      }

      if (journey.noCategories) {
        // Every post got the one category picked for them all: a visitor reads it on each card.
        await visitor.page.goto(`${server.url}/allblogs`);
        const cards = visitor.page.getByTestId('blog-grid').locator(':scope > li');
        expect(await cards.count()).toBe(12);
        for (const card of await cards.all()) expect(await card.textContent()).toContain(journey.noCategories.choose);
      }

      await journey.more?.({ page: writer.page, server: { url: server.url, dataDir: server.dataDir }, writerEmail: account.email, images });

      const second = await importThroughScreen(writer.page, server.url, file);
      expect(second.report).toBe(`0 posts imported (${count} were here already, 0 skipped), 0 comments, 0 pictures, 0 old links redirected.`);
      expect(pictureRequests(images)).toBe(journey.pictureRequests);
      expect(await allBlogsCount(writer.page, server.url)).toBe(count);
      expect(await allBlogsCount(visitor.page, server.url)).toBe(visible);
    });
  });
}

/**
 * A subscriber list imported alone (docs/decisions/090): `alone` through the writer's screen, with
 * what the screen shows checked against `seen` and the report kept as `<shot>-report`; then
 * `consented` by the operator's command line with --consented, its output holding each of `printed`
 * and no word of posts.
 */
export async function importListAlone(
  run: { page: Page; server: { url: string; dataDir: string }; writerEmail: string },
  files: { dir: string; alone: [name: string, body: string]; consented: [name: string, body: string]; shot: string },
  seen: Partial<ImportSeen> & { skipped: string[] },
  printed: string[],
): Promise<void> {
  const alone = path.join(files.dir, files.alone[0]);
  await writeFile(alone, files.alone[1]);
  const { skipped, ...shown } = seen;
  const got = await importThroughScreen(run.page, run.server.url, alone, { shot: files.shot });
  expect(got).toMatchObject(shown);
  expect(got.skipped).toEqual(skipped);
  await screenshot(run.page, `${files.shot}-report`);

  const consented = path.join(files.dir, files.consented[0]);
  await writeFile(consented, files.consented[1]);
  const env = { ...process.env, DATA_DIR: run.server.dataDir, LOG_LEVEL: 'warn' };
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/import.js', consented, '--as', run.writerEmail, '--consented'], { env, encoding: 'utf8' });
  for (const line of printed) expect(stdout).toContain(line);
  // No line on posts for a list (docs/decisions/095).
  expect(stdout).not.toMatch(/\bposts?\b/);
}
