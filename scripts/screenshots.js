// `node scripts/screenshots.js --base http://127.0.0.1:PORT --label after [--out DIR]`: the first
// screen of every screen of the site, desktop (1366×900) and phone (390×844), light and dark,
// signed out and (for the screens that need it) signed in as a writer of the bench data set
// (`npm run bench:seed`; RATE_LIMITS=off on the server). Written as DIR/LABEL/<screen>-<width>-<theme>.png
// (DIR defaults to tests/e2e/screenshots/compare, which git ignores), so two builds of the site
// (before and after a change) can be looked at side by side. Debian's Chromium (CHROME_PATH).
// The moderation screen shows only when writer 0 is an admin on that DATA_DIR
// (`npm run admin -- grant writer0@bench.afterglow.test`); otherwise it is the 404 page.
// `SCREENS=login,register` shoots only the screens named. docs/screens.md is what was seen.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { BENCH_PASSWORD, benchUserEmail } from './bench/seed.js';

const { values: args } = parseArgs({
  options: { base: { type: 'string' }, label: { type: 'string', default: 'after' }, out: { type: 'string', default: 'tests/e2e/screenshots/compare' } },
});
if (!args.base) throw new Error('--base http://host:port is needed');
const base = args.base.replace(/\/$/, '');
const outDir = path.join(args.out, args.label);
mkdirSync(outDir, { recursive: true });

const WIDTHS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } };
const THEMES = { light: 'afterglow', dark: 'sunset' };

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const newContext = () => browser.newContext({ reducedMotion: 'reduce' });
const signInAs = async (context, email, password = BENCH_PASSWORD) => {
  const answer = await context.request.post(`${base}/api/auth/sign-in/email`, { headers: { origin: base }, data: { email, password } });
  if (!answer.ok()) throw new Error(`signing in as ${email} failed: ${answer.status()}`);
};
const visitor = await newContext();
const writer = await newContext();
await signInAs(writer, benchUserEmail(0));
// A writer who sets up two-factor sign-in (the setup is only started, never confirmed).
const twoFactor = await newContext();
await signInAs(twoFactor, benchUserEmail(2));
// A new reader with a long name and nothing yet: the empty states, and names that must wrap.
const fresh = await newContext();
const freshEmail = `fresh-${Date.now()}@screens.afterglow.test`;
const signUp = await fresh.request.post(`${base}/api/auth/sign-up/email`, {
  headers: { origin: base },
  data: { name: 'Maximiliana Alexandrina Featherstonehaugh-Worthington-Cholmondeley', email: freshEmail, password: BENCH_PASSWORD },
});
if (!signUp.ok()) throw new Error(`signing up a new reader failed: ${signUp.status()}`);

// The writer's own blog (for Edit), someone's public blog, and its writer's page (when the build has one).
const mine = ((await (await writer.request.get(`${base}/api/blogs?limit=60`)).json()) ?? []).find((b) => b.isOwner || b.email === benchUserEmail(0));
const recent = await (await fetch(`${base}/api/recent-blog`)).json();
const blogPath = `/blogs/${recent[0]._id}`;
const blogHtml = await (await writer.request.get(`${base}${blogPath}`)).text();
const authorPath = /href="(\/authors\/[^"]+)"/.exec(blogHtml)?.[1];
const ownAuthorPath = /href="(\/authors\/[^"]+)"/.exec(await (await writer.request.get(`${base}/profile`)).text())?.[1];
const freshAuthorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fresh.request.get(`${base}/profile`)).text())?.[1];
// The writer follows the blog's writer (where the build has following), so /following has a row.
const writerId = /name="writerId" value="([^"]+)"/.exec(blogHtml)?.[1];
if (writerId) await writer.request.post(`${base}/follow`, { headers: { origin: base }, form: { writerId, intent: 'follow', redirectTo: '/following' } });
// The writer is an admin where the build has moderation (`npm run admin -- grant` on its DATA_DIR
// beforehand), and a reader reports the blog, so the queue has something in it.
const moderates = (await writer.request.get(`${base}/moderation`, { maxRedirects: 0 })).status() === 200;
if (moderates) {
  const reporter = await newContext();
  await signInAs(reporter, benchUserEmail(5));
  await reporter.request.post(`${base}/api/reports`, { headers: { origin: base }, data: { targetType: 'blog', targetId: recent[0]._id, reason: 'Spam', details: 'Looks like an advert.' } });
  await reporter.close();
}

/** Steps before a picture: scroll to a part below the first screen, or fill and send a form. */
const scrollTo = (selector, block = 'start') => async (page) => {
  const target = page.locator(selector).first();
  if (await target.count()) await target.evaluate((el, b) => el.scrollIntoView({ block: b }), block);
};
const send = (fields) => async (page) => {
  const form = page.locator('main form[method="post" i]').last();
  if (!(await form.count())) return;
  for (const [name, value] of Object.entries(fields)) {
    const field = form.locator(`[name="${name}"]`);
    if (await field.count()) await field.fill(value);
  }
  await form.locator('[type="submit"]').last().click();
  // The answer is in when the form is no longer busy (its button enabled again) or has gone.
  await page.waitForTimeout(250);
  await page.waitForFunction(() => !document.querySelector('main form [type="submit"]:disabled'), null, { timeout: 15_000 }).catch(() => {});
  await page.waitForLoadState('networkidle');
};
const startTwoFactor = async (page) => {
  const form = page.locator('[data-testid="two-factor-enable"]');
  if (!(await form.count())) return;
  await form.locator('[name="password"]').fill(BENCH_PASSWORD);
  await Promise.all([page.waitForLoadState('networkidle'), form.locator('[type="submit"]').click()]);
  await page.locator('[data-testid="two-factor-confirm"]').waitFor({ timeout: 10_000 }).catch(() => {});
  await scrollTo('[data-testid="two-factor"]')(page);
};

/** Presses the first Remove on the wishlist; `confirm` also answers 'Yes, delete it!' (the 'Deleted!' dialog, held open by pointing at Undo). */
const removeFromWishlist = (confirm) => async (page) => {
  await page.clock.resume().catch(() => {}); // paused by the picture before, if any
  // A row to remove: the first recent blog, put back first (each picture removes one).
  await page.request.post(`${base}/api/wishlist`, { headers: { origin: base }, data: { blogId: recent[0]._id, title: recent[0].title, photo: recent[0].photo ?? '', email: benchUserEmail(0), category: recent[0].category, description: recent[0].short_description, createdAt: new Date().toISOString() } });
  await page.reload({ waitUntil: 'networkidle' });
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  if (confirm) {
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
  }
  await page.getByRole('button', { name: /^Remove / }).first().click();
  const sure = page.getByRole('dialog', { name: 'Are you sure?' });
  await sure.waitFor();
  if (!confirm) return;
  await sure.getByRole('button', { name: 'Yes, delete it!' }).click();
  await page.getByRole('dialog', { name: 'Deleted!' }).getByRole('button', { name: 'Undo' }).hover();
  await page.clock.resume();
};
/** Saves the profile form as it is: the 'Updated!' dialog, on a paused clock so that it stays. */
const saveProfile = async (page) => {
  await page.clock.resume().catch(() => {}); // paused by the picture before, if any
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1000);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByRole('dialog', { name: 'Updated!' }).waitFor();
};

const SCREENS = [
  ['home', '/', visitor],
  ['home-signed-in', '/', writer],
  ['home-achievements', '/', visitor, scrollTo('[data-testid="achievements"]', 'center')],
  ['all-blogs', '/allblogs', visitor],
  ['all-blogs-search', '/allblogs?q=sunset', visitor],
  ['all-blogs-no-results', '/allblogs?q=zzqqxxnothing', visitor],
  ['blog', blogPath, visitor],
  ['blog-signed-in', blogPath, writer],
  ['blog-signed-in-actions', blogPath, writer, scrollTo('[data-testid="like-button"]', 'center')],
  ['blog-signed-in-comments', blogPath, writer, scrollTo('#comments, [data-testid="comments"], section[aria-labelledby*="comment" i]')],
  ['blog-visitor-comments', blogPath, visitor, scrollTo('#comments, [data-testid="comments"], section[aria-labelledby*="comment" i]')],
  ['featured', '/featuredBlogs', visitor],
  ['recent', '/recent', visitor],
  ...(authorPath ? [['author', authorPath, visitor], ['author-signed-in', authorPath, writer]] : []),
  ...(ownAuthorPath ? [['author-own', ownAuthorPath, writer]] : []),
  ...(freshAuthorPath ? [['author-own-empty', freshAuthorPath, fresh]] : []),
  ['login', '/login', visitor],
  ['login-error', '/login', visitor, send({ email: benchUserEmail(1), password: 'not-the-password' })],
  ['register', '/register', visitor],
  ['register-error', '/register', visitor, send({ name: 'A', email: 'not-an-address@x', password: 'short' })],
  ['forgot-password', '/forgot-password', visitor],
  ['forgot-password-sent', '/forgot-password', visitor, send({ email: 'nobody@screens.afterglow.test' })],
  ['reset-password', '/reset-password?token=not-a-real-token', visitor],
  ['reset-password-invalid', '/reset-password?error=INVALID_TOKEN', visitor],
  ['add-blog', '/addBlog', writer],
  ...(mine ? [['update-blog', `/updateBlog/${mine._id}`, writer], ['own-blog', `/blogs/${mine._id}`, writer], ['own-blog-comments', `/blogs/${mine._id}`, writer, scrollTo('#comments')]] : []),
  ['wishlist', '/wishlist', writer],
  ['wishlist-empty', '/wishlist', fresh],
  ['wishlist-confirm', '/wishlist', writer, removeFromWishlist(false)],
  ['wishlist-deleted', '/wishlist', writer, removeFromWishlist(true)],
  ['following', '/following', writer],
  ['following-empty', '/following', fresh],
  ['mail-preferences', '/mail/preferences', writer],
  ['mail-preferences-bad-link', '/mail/preferences?t=not-a-real-token', visitor],
  ['profile', '/profile', writer],
  ['profile-new-reader', '/profile', fresh],
  ['two-factor-setup', '/profile', twoFactor, startTwoFactor],
  ['update-profile', '/update-profile', writer],
  ['update-profile-saved', '/update-profile', writer, saveProfile],
  ['moderation', '/moderation', writer],
  ['moderation-instance', '/moderation/instance', writer],
  ['newsletter', '/newsletter', visitor],
  ['memoryframe', '/memoryframe', visitor],
  ['counter', '/counter', visitor],
  ['not-found', '/no/such/page', visitor],
  ['not-found-blog', '/blogs/00000000-0000-4000-8000-00000fffffff', visitor],
];

const only = process.env.SCREENS ? new Set(process.env.SCREENS.split(',')) : null;
let count = 0;
for (const [name, pagePath, context, prepare] of SCREENS) {
  if (only && !only.has(name)) continue;
  const page = await context.newPage();
  try {
    for (const [width, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size);
      for (const [theme, daisyTheme] of Object.entries(THEMES)) {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await page.goto(`${base}${pagePath}`, { waitUntil: 'networkidle' });
        await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), daisyTheme);
        if (prepare) {
          await prepare(page);
          await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), daisyTheme);
        }
        // Fonts and pictures in, transitions over, before the picture is taken.
        await page.evaluate(() => document.fonts.ready);
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(outDir, `${name}-${width}-${theme}.png`) });
        count += 1;
      }
    }
  } finally {
    await page.close();
  }
}
await browser.close();
console.log(`screenshots: ${count} pictures of ${SCREENS.length} screens in ${outDir}`);
