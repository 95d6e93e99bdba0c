import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finiteAnimationsDone, scrollToElement, scrollToLive, useSharedBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { useServer } from '../support/server';
import { DAISY_THEME, type ThemePreference } from '~/lib/page/theme';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlogs, seedWishlist } from '../support/home-seed';

/**
 * Accessibility (docs/decisions/014): axe-core (WCAG 2.0–2.2 A and AA, plus axe's best practices) on every screen of
 * the route table and on the states that appear on interaction, signed out and signed in, in
 * the light and the dark theme, at phone and desktop width. One browser, one context per sign-in
 * state, data seeded once. To cover a new screen, add one entry to SCREENS.
 */

type Who = 'out' | 'in';
type Width = keyof typeof VIEWPORTS;

interface Seed {
  /** A public blog of another writer, with comments. */
  other: string;
  /** Another writer's blog the signed-in user likes and unlikes for the toast. */
  toastBlog: string;
  /** The signed-in user's own public blog, commented on by the other writer. */
  own: string;
  ownHidden: string;
  wishlistItem: string;
  /** The other writer's and the signed-in reader's user ids (author pages). */
  writerId: string;
  readerId: string;
}

interface Screen {
  name: string;
  path: (seed: Seed) => string;
  /** Signed out, signed in, or both where the screen differs (every screen's navigation does). */
  who: Who[];
  widths?: Width[];
  /** Brings the hydrated page into the state to check: an open dialog, errors shown, a menu open… */
  act?: (page: Page, seed: Seed) => Promise<void>;
  /** Checked with motion allowed (the moving gallery, the counters), once finite animations end. */
  motion?: boolean;
}

const BOTH: Who[] = ['out', 'in'];
const OUT: Who[] = ['out'];
const IN: Who[] = ['in'];

const submit = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).click();
const dialogShown = (page: Page, name: string) => page.getByRole('dialog', { name }).waitFor();

/** Keeps a toast or timed dialog on screen while axe reads it: timers stand still, the fade waits. */
async function holdFeedback(page: Page) {
  await page.clock.install();
  await page.addStyleTag({ content: '.feedback-toast { animation-play-state: paused !important; }' });
}

export const SCREENS: Screen[] = [
  { name: 'home', path: () => '/', who: BOTH },
  {
    name: 'home with motion (moving gallery, counters done)',
    path: () => '/',
    who: OUT,
    motion: true,
    act: async (page) => {
      // The moving row and the counting code load as their sections come near the viewport.
      await scrollToElement(page.getByRole('heading', { name: 'studio frame' }));
      await page.getByTestId('gallery-marquee').waitFor();
      await scrollToElement(page.getByTestId('achievements'));
      // The product's fixed figures (docs/decisions/051).
      await expect.poll(() => page.getByTestId('achievement-figure').allTextContents(), { timeout: 10_000 }).toEqual(['24000+', '70%', '8000+', '60']);
    },
  },
  { name: 'all blogs', path: () => '/allblogs', who: BOTH },
  { name: 'all blogs in a category', path: () => `/allblogs?${new URLSearchParams({ category: 'Travelling & Photography' })}`, who: OUT },
  { name: 'all blogs, empty category', path: () => `/allblogs?${new URLSearchParams({ category: 'Fashion & Beauty' })}`, who: OUT },
  { name: 'all blogs, page 2', path: () => '/allblogs?page=2', who: OUT },
  { name: 'all blogs, searched (ranked, with highlighted excerpts)', path: () => '/allblogs?q=evening+story', who: BOTH },
  { name: 'all blogs, a search that finds nothing', path: () => `/allblogs?${new URLSearchParams({ q: 'nothing-here', category: 'Education' })}`, who: OUT },
  {
    name: 'all blogs, login-required dialog',
    path: () => '/allblogs',
    who: OUT,
    act: async (page) => {
      await page.getByTestId('like-button').first().click();
      await dialogShown(page, 'Login required');
    },
  },
  { name: "someone else's blog with comments", path: (s) => `/blogs/${s.other}`, who: BOTH },
  { name: 'own blog with comments', path: (s) => `/blogs/${s.own}`, who: IN },
  { name: 'own hidden blog', path: (s) => `/blogs/${s.ownHidden}`, who: IN },
  {
    name: 'own blog, delete confirmation',
    path: (s) => `/blogs/${s.own}`,
    who: IN,
    act: async (page) => {
      await page.getByText('Delete Blog', { exact: true }).click();
      await dialogShown(page, 'Are you sure?');
    },
  },
  {
    name: 'comment with a validation error',
    path: (s) => `/blogs/${s.other}`,
    who: IN,
    act: async (page) => {
      await scrollToLive(page, '#comments');
      await submit(page, 'Post Comment');
      await page.locator('#commentText-error').waitFor();
    },
  },
  {
    name: 'like toast',
    path: (s) => `/blogs/${s.toastBlog}`,
    who: IN,
    act: async (page) => {
      const like = page.getByTestId('like-button');
      if ((await like.getAttribute('aria-pressed')) === 'true') {
        await like.click();
        await page.locator('[data-testid="like-button"][aria-pressed="false"]').waitFor();
      }
      await holdFeedback(page);
      await like.click();
      await page.getByTestId('toasts').getByText('Liked successfully!').waitFor();
    },
  },
  { name: 'featured blogs', path: () => '/featuredBlogs', who: OUT },
  { name: 'author page (follow, feed link)', path: (s) => `/authors/${s.writerId}`, who: BOTH },
  {
    name: 'author page, followed',
    path: (s) => `/authors/${s.writerId}`,
    who: IN,
    act: async (page) => {
      // Exact names: 'Follow Writer' is also a part of 'Unfollow Writer'.
      const follow = page.getByRole('button', { name: 'Follow Writer', exact: true });
      if (await follow.count()) await follow.click();
      await page.getByRole('button', { name: 'Unfollow Writer', exact: true }).waitFor();
    },
  },
  { name: 'own author page (Hidden included, views and likes)', path: (s) => `/authors/${s.readerId}`, who: IN },
  { name: 'add blog', path: () => '/addBlog', who: IN },
  {
    name: 'add blog with validation errors',
    path: () => '/addBlog',
    who: IN,
    act: async (page) => {
      await submit(page, 'Add Blog');
      await page.getByTestId('title-error').waitFor();
    },
  },
  { name: 'update blog', path: (s) => `/updateBlog/${s.own}`, who: IN },
  { name: 'wishlist', path: () => '/wishlist', who: IN },
  { name: 'wishlist, removal confirmation without JavaScript', path: (s) => `/wishlist?remove=${s.wishlistItem}`, who: IN },
  {
    name: 'wishlist, removal confirmation',
    path: () => '/wishlist',
    who: IN,
    act: async (page) => {
      await page.getByRole('button', { name: /^Remove / }).first().click();
      await dialogShown(page, 'Are you sure?');
    },
  },
  {
    name: 'wishlist, Deleted! with Undo',
    path: () => '/wishlist',
    who: IN,
    act: async (page, s) => {
      // Each width removes one: the next one puts the blog back first.
      if ((await page.getByRole('button', { name: /^Remove / }).count()) === 0) {
        await seedWishlist(page.context(), server.url, s.other);
        await page.reload();
        await waitForHydration(page);
      }
      // The page's clock stands still until pointing at Undo has held the 1.5 s dialog open for axe.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.getByRole('button', { name: /^Remove / }).first().click();
      await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Yes, delete it!' }).click();
      await page.getByRole('dialog', { name: 'Deleted!' }).getByRole('button', { name: 'Undo' }).hover();
      await page.clock.resume();
    },
  },
  {
    name: 'blog, login prompt with Log In',
    path: (s) => `/blogs/${s.other}`,
    who: OUT,
    act: async (page) => {
      await page.getByTestId('like-button').click();
      await page.getByRole('dialog', { name: 'Login required' }).getByRole('link', { name: 'Log In' }).waitFor();
    },
  },
  { name: 'login', path: () => '/login', who: OUT },
  {
    name: 'login with validation errors',
    path: () => '/login',
    who: OUT,
    act: async (page) => {
      await submit(page, 'Log in');
      await page.getByTestId('email-error').waitFor();
    },
  },
  { name: 'register', path: () => '/register', who: OUT },
  {
    name: 'register with validation errors',
    path: () => '/register',
    who: OUT,
    act: async (page) => {
      await submit(page, 'Sign Up');
      await page.getByTestId('terms-error').waitFor();
    },
  },
  { name: 'forgot password', path: () => '/forgot-password', who: OUT },
  {
    name: 'forgot password with a validation error',
    path: () => '/forgot-password',
    who: OUT,
    act: async (page) => {
      await page.getByLabel('Email').fill('not-an-email');
      await submit(page, 'Send reset link');
      await page.getByTestId('email-error').waitFor();
    },
  },
  {
    name: 'forgot password, link sent',
    path: () => '/forgot-password',
    who: OUT,
    act: async (page) => {
      await page.getByLabel('Email').fill('someone@example.com');
      await submit(page, 'Send reset link');
      await page.getByTestId('reset-sent').waitFor();
    },
  },
  { name: 'reset password', path: () => '/reset-password?token=a-token', who: OUT },
  { name: 'reset password, invalid link', path: () => '/reset-password', who: OUT },
  {
    name: 'reset password with a validation error',
    path: () => '/reset-password?token=a-token',
    who: OUT,
    act: async (page) => {
      await page.getByLabel('New password', { exact: true }).fill('short');
      await submit(page, 'Save new password');
      await page.getByTestId('password-error').waitFor();
    },
  },
  { name: 'profile', path: () => '/profile', who: BOTH },
  { name: 'update profile', path: () => '/update-profile', who: IN },
  {
    name: 'update profile, save failed',
    path: () => '/update-profile',
    who: IN,
    act: async (page) => {
      await page.locator('input[name="photo"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
      await submit(page, 'Save Changes');
      await page.getByTestId('profile-error').waitFor();
      await dialogShown(page, 'Error');
    },
  },
  // The member's own screens added with the conversation and the account: their notifications
  // (the other writer's comment on their blog is one), account settings, their numbers, mail choices.
  { name: 'notifications', path: () => '/notifications', who: IN },
  { name: 'account settings', path: () => '/account', who: IN },
  { name: "a writer's own numbers", path: () => '/profile/stats', who: IN },
  { name: 'mail preferences', path: () => '/mail/preferences', who: IN },
  { name: 'newsletter', path: () => '/newsletter', who: OUT },
  // The signed-in reader subscribed in seedData: the form stands locked with their address.
  { name: 'newsletter, subscribed (signed in)', path: () => '/newsletter', who: IN },
  {
    name: 'newsletter, empty email warning',
    path: () => '/newsletter',
    who: OUT,
    act: async (page) => {
      await holdFeedback(page);
      await submit(page, 'Subscribe');
      await dialogShown(page, 'Oops!');
    },
  },
  { name: 'recent', path: () => '/recent', who: OUT },
  { name: 'counter', path: () => '/counter', who: OUT },
  { name: 'memoryframe', path: () => '/memoryframe', who: OUT },
  { name: 'not found', path: () => '/no/such/page', who: OUT },
  {
    name: 'mobile menu open',
    path: () => '/allblogs',
    who: BOTH,
    widths: ['phone'],
    act: async (page) => {
      await page.getByTestId('mobile-menu').locator('summary').click();
      await page.getByTestId('mobile-menu').getByRole('link', { name: 'All Blogs' }).waitFor();
    },
  },
  {
    name: 'account menu open',
    path: () => '/',
    who: IN,
    act: async (page) => {
      await page.getByTestId('user-menu').locator('summary').click();
      await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    },
  },
];

const THEMES: ThemePreference[] = ['light', 'dark'];

const server = useServer();
const browser = useSharedBrowser();
const contexts = {} as Record<Who, BrowserContext>;
let seed: Seed;
let checks = 0;
let violationCount = 0;

async function seedData(signedIn: BrowserContext): Promise<Seed> {
  const writerContext = await browser.newContext();
  try {
    await signUp(writerContext, server.url, { name: 'Writer' });
    const titles = Array.from({ length: 13 }, (_, i) => ({ title: `Evening story ${i + 1}` }));
    const [other, toastBlog] = await seedBlogs(writerContext, server.url, titles);
    const reader = await signUp(signedIn, server.url, { name: 'Reader' });
    const subscribed = await signedIn.request.post(`${server.url}/api/subscribers`, { headers: { origin: server.url }, data: { email: reader.email } });
    if (!subscribed.ok()) throw new Error(`subscribing failed: ${subscribed.status()}`);
    const [own, ownHidden] = await seedBlogs(signedIn, server.url, [
      { title: 'My own sunset', category: 'Technology' },
      { title: 'A private draft', availability: 'Hidden' },
    ]);
    const comment = (context: BrowserContext, id: string, commentText: string) =>
      context.request.patch(`${server.url}/api/blogs/${id}`, { headers: { origin: server.url }, data: { commentText } }).then((r) => {
        if (!r.ok()) throw new Error(`comment failed: ${r.status()}`);
      });
    await comment(writerContext, own!, 'What a view. The colours are unreal.');
    await comment(signedIn, other!, 'I went there last summer, thank you for the memories!');
    await signedIn.request.patch(`${server.url}/api/blogs/liked/${other}`, { headers: { origin: server.url } });
    const wishlistItem = await seedWishlist(signedIn, server.url, other!);
    // The byline links to the author page: its href carries the writer's user id.
    const authorOf = async (id: string) => /href="\/authors\/([^"]+)"/.exec(await (await fetch(`${server.url}/blogs/${id}`)).text())?.[1] ?? '';
    return { other: other!, toastBlog: toastBlog!, own: own!, ownHidden: ownHidden!, wishlistItem, writerId: await authorOf(other!), readerId: await authorOf(own!) };
  } finally {
    await writerContext.close();
  }
}

beforeAll(async () => {
  contexts.out = await browser.newContext();
  contexts.in = await browser.newContext();
  seed = await seedData(contexts.in);
});

afterAll(async () => {
  // The figure to quote when reporting on accessibility (docs/decisions/014).
  console.log(`a11y: ${violationCount} violations / ${checks} checks (${SCREENS.length} screens and states × signed out/in × ${THEMES.length} themes × ${Object.keys(VIEWPORTS).length} widths, where they apply)`);
});

describe('accessibility matrix (WCAG 2.2 AA + best practices)', () => {
  for (const screen of SCREENS) {
    it(screen.name, async () => {
      const found: string[] = [];
      for (const who of screen.who) {
        // Each sign-in state has its own page: a fresh one per screen, so no state leaks over.
        const page = await contexts[who].newPage();
        try {
          for (const width of screen.widths ?? (Object.keys(VIEWPORTS) as Width[])) {
            await page.setViewportSize(VIEWPORTS[width]);
            await page.emulateMedia({ reducedMotion: screen.motion ? 'no-preference' : 'reduce', colorScheme: 'light' });
            await page.goto(`${server.url}${screen.path(seed)}`);
            await waitForHydration(page);
            await screen.act?.(page, seed);
            await finiteAnimationsDone(page);
            for (const theme of THEMES) {
              // What the theme toggle does (lib/theme.ts), with the OS preference to match.
              await page.emulateMedia({ colorScheme: theme });
              await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), DAISY_THEME[theme]);
              await finiteAnimationsDone(page);
              checks += 1;
              for (const v of await axeViolations(page, { bestPractice: true })) {
                violationCount += 1;
                found.push(`signed ${who}, ${width}, ${theme}: ${v.id} — ${v.help} — ${v.targets.join(', ')}`);
              }
            }
          }
        } finally {
          await page.close();
        }
      }
      expect(found).toEqual([]);
      // Up to 8 page loads and axe runs per entry: room for a busy machine.
    }, 180_000);
  }
});

