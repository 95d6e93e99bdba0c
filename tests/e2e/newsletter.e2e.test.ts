import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowsers } from '../support/browser';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { type Browser, screenshot, waitForHydration } from '../support/browser';
import { expectDialog } from '../support/dialogs';

const server = useServer();
let browser: Browser | undefined;
/** Console lines a test expects (the product logs subscription failures); anything else fails it. */

const browsers = useBrowsers();

let counter = 0;
const freshEmail = () => `Reader.${++counter}.${Date.now().toString(36)}@Example.com`;

async function openNewsletter(page: Page, path = '/') {
  await page.goto(`${server.url}${path}`);
  await waitForHydration(page);
  // Scrolled in the page (the home page's section is server markup until it comes near, then
  // replaced by the live one: decision 036), then the live section.
  await page.evaluate(() => document.querySelector('[data-testid="newsletter"]')?.scrollIntoView());
  const section = path === '/' ? page.locator('[data-live] [data-testid="newsletter"]') : page.getByTestId('newsletter');
  await section.waitFor();
  return {
    section,
    field: section.getByLabel('Email'),
    button: section.getByRole('button', { name: 'Subscribe' }),
  };
}


describe('the newsletter form', () => {
  it('starts empty and warns about an empty email without sending anything', async () => {
    browser = await browsers.open();
    const { page } = browser;
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    const { section, field, button } = await openNewsletter(page);
    expect(await section.getByRole('heading').textContent()).toBe('Never Miss a New Story!');
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('type')).toBe('email');
    expect(await section.evaluate((s) => getComputedStyle(s).backgroundImage)).toContain('/images/newsletter-bg.svg');
    await button.click();
    const dialog = await expectDialog(page, 'Oops!', 'Please enter an email address.');
    expect(await dialog.getAttribute('data-kind')).toBe('warning');
    expect(posts).toEqual([]);
    expect(await button.isEnabled()).toBe(true);
  });

  it('subscribes, disabling the button while sending, then locks for good', async () => {
    browser = await browsers.open();
    const { page } = browser;
    const { field, button } = await openNewsletter(page);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/subscribers', async (route) => {
      await held;
      await route.continue();
    });
    const email = freshEmail();
    await field.fill(email);
    await button.click();
    await expect.poll(() => button.isDisabled()).toBe(true);
    expect(await field.getAttribute('readonly')).toBeNull();
    release();
    await expectDialog(page, 'Subscribed!', 'Thanks for subscribing! New stories will find their way to your inbox.');
    await screenshot(page, 'newsletter-subscribed');
    expect(await field.getAttribute('readonly')).not.toBeNull();
    expect(await button.isDisabled()).toBe(true);
    // The popup leaves after 1.5 s; the form stays locked.
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await button.isDisabled()).toBe(true);
    expect(await field.inputValue()).toBe(email);
  });

  it('answers a second subscription of the same email (any case) with Already Subscribed, and locks', async () => {
    const email = freshEmail();
    const first = await fetch(`${server.url}/api/subscribers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    expect(first.status).toBe(201);
    browser = await browsers.open();
    const { page } = browser;
    // A 409 shows up as a failed resource load in the console; that is the product's answer, not a fault.
    browsers.allow(/status of 409/);
    const { field, button } = await openNewsletter(page, '/newsletter');
    await field.fill(email.toLowerCase());
    await button.click();
    await expectDialog(page, 'Already Subscribed', 'This email is already on our list. Thanks for staying with us!');
    expect(await field.getAttribute('readonly')).not.toBeNull();
    expect(await button.isDisabled()).toBe(true);
  });

  it('reports any other failure and stays editable', async () => {
    browser = await browsers.open();
    const { page } = browser;
    browsers.allow(/status of 500/, /subscribe answered 500/);
    const { field, button } = await openNewsletter(page);
    await page.route('**/api/subscribers', (route) => route.fulfill({ status: 500, json: { message: 'boom' } }));
    await field.fill(freshEmail());
    await button.click();
    const dialog = await expectDialog(page, 'Error', 'Subscription failed. Try again later.');
    expect(await dialog.getAttribute('data-kind')).toBe('error');
    expect(await field.getAttribute('readonly')).toBeNull();
    expect(await button.isEnabled()).toBe(true);
    expect(browser.errors.some((e) => e.includes('subscribe answered 500'))).toBe(true);
    // Offline is a failure too.
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.route('**/api/subscribers', (route) => route.abort());
    browsers.allow(/Failed to fetch|ERR_FAILED/);
    await button.click();
    await expectDialog(page, 'Error', 'Subscription failed. Try again later.');
    expect(await button.isEnabled()).toBe(true);
  });

  it('fills in the signed-in user’s email on focus', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url);
    const { field, button } = await openNewsletter(page);
    expect(await field.inputValue()).toBe('');
    await field.focus();
    expect(await field.inputValue()).toBe(user.email);
    await button.click();
    await expectDialog(page, 'Subscribed!', 'Thanks for subscribing! New stories will find their way to your inbox.');
    // The form remembers the subscription on the next visit, on home and on /newsletter.
    for (const path of ['/', '/newsletter']) {
      const again = await openNewsletter(page, path);
      expect(await again.field.inputValue()).toBe(user.email.toLowerCase());
      expect(await again.field.getAttribute('readonly')).not.toBeNull();
      expect(await again.button.isDisabled()).toBe(true);
      expect(await page.getByTestId('newsletter-subscribed').textContent()).toContain(user.email.toLowerCase());
    }
  });

  it('does not fill anything in for an anonymous visitor', async () => {
    browser = await browsers.open();
    const { field } = await openNewsletter(browser.page);
    await field.focus();
    expect(await field.inputValue()).toBe('');
  });

  it('works without JavaScript, from the home page and from /newsletter', async () => {
    browser = await browsers.open({ javaScriptEnabled: false });
    const { page } = browser;
    const email = freshEmail();
    for (const [path, expected] of [
      ['/', { title: 'Subscribed!', text: 'Thanks for subscribing! New stories will find their way to your inbox.', status: 200 }],
      ['/newsletter', { title: 'Already Subscribed', text: 'This email is already on our list. Thanks for staying with us!', status: 409 }],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      const section = page.getByTestId('newsletter');
      await section.getByLabel('Email').fill(email);
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), section.getByRole('button', { name: 'Subscribe' }).click()]);
      expect(response.status()).toBe(expected.status);
      await page.waitForLoadState();
      const outcome = page.getByTestId('newsletter-outcome');
      expect(await outcome.textContent()).toBe(`${expected.title}${expected.text}`);
      expect(await page.getByTestId('newsletter').getByLabel('Email').getAttribute('readonly')).not.toBeNull();
      expect(await page.getByTestId('newsletter').getByRole('button', { name: 'Subscribe' }).isDisabled()).toBe(true);
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await page.goto(`${server.url}/newsletter`);
    await page.getByTestId('newsletter').getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForLoadState();
    expect(await page.getByTestId('newsletter-outcome').textContent()).toBe('Oops!Please enter an email address.');
    expect(await page.getByTestId('newsletter').getByRole('button', { name: 'Subscribe' }).isEnabled()).toBe(true);
    // The no-JS outcome on the page can be a 4xx; the browser logs that as a console error.
    browsers.allow(/status of 40[09]/);
  });
});
