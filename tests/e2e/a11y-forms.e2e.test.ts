import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSharedBrowser } from '../support/browser';
import { useServer } from '../support/server';
import { MESSAGES } from '~/lib/texts/messages';
import { signUp } from '../support/auth';
import { scrollToLive, waitForHydration } from '../support/browser';
import { seedBlogs } from '../support/home-seed';

/**
 * Accessibility (docs/decisions/014): form errors are announced and tied to their fields. A failed submission marks each
 * wrong field aria-invalid, points its aria-describedby at the visible error text, and moves
 * focus to the first wrong field (so a screen reader reads field, state and error at once);
 * failures that are not about one field arrive in a modal dialog or a role=alert region.
 */

const server = useServer();
const browser = useSharedBrowser();
let signedIn: BrowserContext;
let signedOut: BrowserContext;
let page: Page;
let ownBlog: string;
let otherBlog: string;

beforeAll(async () => {
  const writer = await browser.newContext();
  await signUp(writer, server.url, { name: 'Writer' });
  [otherBlog] = (await seedBlogs(writer, server.url, [{ title: 'Not mine' }])) as [string];
  await writer.close();
  signedOut = await browser.newContext({ reducedMotion: 'reduce' });
  signedIn = await browser.newContext({ reducedMotion: 'reduce' });
  await signUp(signedIn, server.url, { name: 'Reader' });
  [ownBlog] = (await seedBlogs(signedIn, server.url, [{ title: 'Mine' }])) as [string];
});
afterEach(async () => page?.close());

async function open(path: string, who: 'in' | 'out') {
  page = await (who === 'in' ? signedIn : signedOut).newPage();
  await page.goto(`${server.url}${path}`);
  await waitForHydration(page);
  return page;
}

interface InvalidField {
  /** The field's label text. */
  field: string;
  /** The texts its aria-describedby points at, in order; a missing or hidden target is reported. */
  described: string[];
  focused: boolean;
}

/** Every field marked aria-invalid, in document order, with what describes it. */
function invalidFields(): Promise<InvalidField[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('[aria-invalid="true"]')].map((el) => ({
      field: (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.name).trim(),
      described: (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => {
          const target = document.getElementById(id);
          return target?.checkVisibility() ? (target.textContent ?? '').trim() : `#${id} is missing or hidden`;
        }),
      focused: el === document.activeElement,
    })),
  );
}

/** The wrong fields are exactly `expected` (label → error text), tied to it, and the first has focus. */
async function expectTiedErrors(expected: Record<string, string | RegExp>) {
  await page.locator('[aria-invalid="true"]').first().waitFor();
  // Focus arrives just after the errors render.
  await expect.poll(async () => (await invalidFields())[0]?.focused).toBe(true);
  const fields = await invalidFields();
  expect(fields.map((f) => f.field)).toEqual(Object.keys(expected));
  for (const f of fields) {
    const want = expected[f.field]!;
    expect(f.described.some((text) => (typeof want === 'string' ? text === want : want.test(text))), `${f.field}: ${f.described.join(' | ')}`).toBe(true);
  }
}

/** A modal dialog named `title`, described by `text`, holding focus. */
async function expectAnnouncedDialog(title: string, text: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  expect(await dialog.evaluate((d) => (d as HTMLDialogElement).matches(':modal'))).toBe(true);
  const describedBy = await dialog.getAttribute('aria-describedby');
  expect(await page.locator(`#${describedBy}`).textContent()).toBe(text);
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  return dialog;
}

const press = (name: string) => page.getByRole('button', { name, exact: true }).click();

describe('form errors are announced and tied to their fields', () => {
  it('login', async () => {
    await open('/login', 'out');
    await press(MESSAGES.logInButton);
    await expectTiedErrors({ Email: /required|valid email/i, Password: /required/i });
  });

  it('login with wrong credentials: a dialog and an alert under the form', async () => {
    await open('/login', 'out');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Wrong1234');
    await press(MESSAGES.logInButton);
    await expectAnnouncedDialog(MESSAGES.loginErrorTitle, MESSAGES.loginErrorText);
    expect(await page.getByRole('alert').filter({ hasText: /\S/ }).count()).toBeGreaterThan(0);
  });

  it('register', async () => {
    await open('/register', 'out');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await press(MESSAGES.signUp);
    await expectTiedErrors({
      Email: /required|valid email/i,
      Name: /required/i,
      Password: MESSAGES.passwordHint,
      [MESSAGES.acceptTermsLabel]: MESSAGES.acceptTerms,
    });
  });

  it('add blog', async () => {
    await open('/addBlog', 'in');
    await page.getByLabel('Title').fill('Only a title');
    await press('Add Blog');
    const required = 'This field is required';
    // In the page's order: the canvas's body first, then the side panel's fields (decision 070).
    await expectTiedErrors({
      'Long description': required,
      Category: 'Choose a category.',
      Type: 'Choose a type.',
      'Short description': required,
      Image: required,
      Availability: 'Choose Public or Hidden.',
    });
  });

  it('update blog: an image that fails to upload', async () => {
    await open(`/updateBlog/${ownBlog}`, 'in');
    await page.getByLabel('Image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await press('Update Blog');
    const dialog = await expectAnnouncedDialog(MESSAGES.updateBlogErrorTitle, MESSAGES.imageUploadFailed);
    await dialog.getByRole('button', { name: 'OK' }).press('Enter');
    // Closing the dialog gives focus back to the field to fix.
    await expectTiedErrors({ Image: MESSAGES.imageUploadFailed });
  });

  it('comment', async () => {
    await open(`/blogs/${otherBlog}`, 'in');
    await scrollToLive(page, '#comments');
    await press('Post Comment');
    await expectTiedErrors({ Comment: /required|empty|write/i });
    // A second empty try brings focus back again.
    await page.getByRole('button', { name: 'Post Comment' }).focus();
    await press('Post Comment');
    await expectTiedErrors({ Comment: /required|empty|write/i });
  });

  it('own blog: the refusal where the comment form would be', async () => {
    await open(`/blogs/${ownBlog}`, 'in');
    await page.getByText("You can't comment on your own post 😥", { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Comment' }).count()).toBe(0);
  });

  it('newsletter: an empty email is answered by a dialog', async () => {
    await open('/newsletter', 'out');
    await page.clock.install(); // the warning closes itself after 3 s; it is read here first
    await press(MESSAGES.subscribe);
    await expectAnnouncedDialog(MESSAGES.subscribeEmptyTitle, MESSAGES.subscribeEmptyText);
  });

  it('profile: a file that is no picture', async () => {
    await open('/update-profile', 'in');
    await page.locator('input[name="photo"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await press(MESSAGES.saveChanges);
    const dialog = await expectAnnouncedDialog(MESSAGES.profileErrorTitle, MESSAGES.profileErrorText);
    await dialog.getByRole('button', { name: 'OK' }).press('Enter');
    const alert = page.getByRole('alert').filter({ hasText: MESSAGES.profileErrorText });
    await alert.waitFor();
    const fields = await invalidFields();
    expect(fields).toHaveLength(1);
    expect(fields[0]!.described).toContain(await alert.textContent());
  });

  it('forgot password', async () => {
    await open('/forgot-password', 'out');
    await page.getByLabel('Email').fill('not-an-email');
    await press(MESSAGES.sendResetLink);
    await expectTiedErrors({ Email: MESSAGES.emailHint });
  });

  it('reset password', async () => {
    await open('/reset-password?token=some-token', 'out');
    await page.getByLabel(MESSAGES.newPassword, { exact: true }).fill('short');
    await press(MESSAGES.saveNewPassword);
    await expectTiedErrors({ [MESSAGES.newPassword]: MESSAGES.passwordHint });
  });

  it('toasts are spoken by a live region that is there before they arrive', async () => {
    await open(`/blogs/${otherBlog}`, 'in');
    const region = page.getByTestId('toasts');
    expect(await region.getAttribute('role')).toBe('status');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    await page.getByTestId('like-button').click();
    await region.getByText(MESSAGES.likeSuccess).waitFor();
  });
});
