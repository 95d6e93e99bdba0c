// `node scripts/screenshots.js --base http://127.0.0.1:PORT --label after [--out DIR]`: the first
// screen of every screen of the site, desktop (1366×900) and phone (390×844), light and dark,
// signed out and (for the screens that need it) signed in as a writer of the bench data set
// (`npm run bench:seed`; RATE_LIMITS=off on the server). Written as DIR/LABEL/<screen>-<width>-<theme>.png
// (DIR defaults to tests/e2e/screenshots/compare, which git ignores), so two builds of the site
// (before and after a change) can be looked at side by side. Debian's Chromium (CHROME_PATH).
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
const visitor = await browser.newContext({ reducedMotion: 'reduce' });
const writer = await browser.newContext({ reducedMotion: 'reduce' });
const signIn = await writer.request.post(`${base}/api/auth/sign-in/email`, { headers: { origin: base }, data: { email: benchUserEmail(0), password: BENCH_PASSWORD } });
if (!signIn.ok()) throw new Error(`signing in as the bench writer failed: ${signIn.status()}`);

// The writer's own blog (for Edit), someone's public blog, and its writer's page (when the build has one).
const mine = ((await (await writer.request.get(`${base}/api/blogs?limit=60`)).json()) ?? []).find((b) => b.isOwner || b.email === benchUserEmail(0));
const recent = await (await fetch(`${base}/api/recent-blog`)).json();
const blogPath = `/blogs/${recent[0]._id}`;
const authorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fetch(`${base}${blogPath}`)).text())?.[1];

const SCREENS = [
  ['home', '/', visitor],
  ['home-signed-in', '/', writer],
  ['all-blogs', '/allblogs', visitor],
  ['all-blogs-search', '/allblogs?q=sunset', visitor],
  ['blog', blogPath, visitor],
  ['blog-signed-in', blogPath, writer],
  ['featured', '/featuredBlogs', visitor],
  ...(authorPath ? [['author', authorPath, visitor], ['author-signed-in', authorPath, writer]] : []),
  ['login', '/login', visitor],
  ['register', '/register', visitor],
  ['add-blog', '/addBlog', writer],
  ...(mine ? [['update-blog', `/updateBlog/${mine._id}`, writer], ['own-blog', `/blogs/${mine._id}`, writer]] : []),
  ['wishlist', '/wishlist', writer],
  ['profile', '/profile', writer],
  ['update-profile', '/update-profile', writer],
  ['newsletter', '/newsletter', visitor],
  ['counter', '/counter', visitor],
  ['not-found', '/no/such/page', visitor],
];

let count = 0;
for (const [name, pagePath, context] of SCREENS) {
  const page = await context.newPage();
  try {
    for (const [width, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size);
      for (const [theme, daisyTheme] of Object.entries(THEMES)) {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await page.goto(`${base}${pagePath}`, { waitUntil: 'networkidle' });
        await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), daisyTheme);
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
