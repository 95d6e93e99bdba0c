import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { jpegImage, pngImage, TEXT_FILE } from '../support/images';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { type Browser, openBrowser, screenshot, scrollToElement, VIEWPORTS, waitForHydration } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';

/** Our stored picture's Markdown, with the size the editor wrote (docs/decisions/030). */
const BODY_IMAGE = (alt: string, w: number, h: number) => new RegExp(`!\\[${alt}\\]\\(/uploads/[0-9a-f-]{36}-1600\\.webp#${w}x${h}\\)`);

/** Drops files on an element the way a browser does after a drag from the desktop. */
async function dropFiles(page: Page, target: Locator, files: { name: string; type: string; bytes: Buffer }[]) {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const f of list) transfer.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      return transfer;
    },
    files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })),
  );
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Presses keys (`[End]`, `[Control+K]`) and types text, in order, in `field`. */
async function typeInto(field: Locator, ...steps: string[]) {
  for (const step of steps) {
    const key = /^\[(.+)\]$/.exec(step)?.[1];
    await (key ? field.press(key) : field.pressSequentially(step));
  }
}

/** Fills the Add blog form's other fields around the body already written, sends it, opens the blog. */
async function publish(page: Page, title: string) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption('Personal');
  await page.getByLabel('Type').selectOption('Photo');
  await page.getByLabel('Short description').fill('Pictures and a link.');
  await page.getByLabel('Image', { exact: true }).setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(900, 600) });
  await page.getByLabel('Availability').selectOption('Public');
  await page.getByRole('button', { name: 'Add Blog' }).click();
  await page.waitForURL(/\/allblogs$/);
  await page.getByRole('link', { name: title }).first().click();
  await page.waitForURL(/\/blogs\//);
}

/** Long enough for an upload through the image pipeline on a busy machine. */
const UPLOAD = { timeout: 20_000 };

/** The field's border colour and the theme's error colour, both as the browser computes them. */
async function borderAndErrorColour(field: Locator) {
  return field.evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--color-error)';
    document.body.append(probe);
    const error = getComputedStyle(probe).color;
    probe.remove();
    return { border: getComputedStyle(el).borderTopColor, error };
  });
}

describe('writing tools: Write/Preview, the toolbar and pictures in the body', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  beforeAll(async () => {
    // A small limit, so a picture too large for it is quick to make.
    server = await startServer({ MAX_UPLOAD_MB: '1' });
  });
  /** Refusals these tests ask for on purpose: the pipeline's 415, and sign-up's 422 for a taken email. */
  let expectedRefusals: number[] = [];
  afterEach(async () => {
    // Console errors include every CSP violation: a body picture refused by the policy fails here.
    const refused = new Set(expectedRefusals.map((status) => `console: Failed to load resource: the server responded with a status of ${status}`));
    const errors = (browser?.errors ?? []).filter((e) => ![...refused].some((r) => e.startsWith(r)));
    await browser?.close();
    browser = undefined;
    expectedRefusals = [];
    expect(errors).toEqual([]);
  });
  afterAll(async () => server?.stop());

  it('formats with the toolbar and shortcuts, uploads pictures by button and by drop, previews exactly what the page shows', async () => {
    browser = await openBrowser({ viewport: { width: 1366, height: 900 } });
    const { page, context } = browser;
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    const body = page.getByLabel('Long description');
    const write = page.getByRole('tab', { name: 'Write' });
    const previewTab = page.getByRole('tab', { name: 'Preview' });
    expect(await write.getAttribute('aria-selected')).toBe('true');
    expect(await previewTab.getAttribute('aria-selected')).toBe('false');

    // Toolbar buttons and shortcuts put Markdown around the selection.
    await body.fill('Dusk');
    await body.evaluate((t: HTMLTextAreaElement) => t.setSelectionRange(0, 4));
    await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Heading' }).click();
    expect(await body.inputValue()).toBe('## Dusk');
    await typeInto(body, '[End]', '[Enter]', '[Enter]', 'We walked to the ', '[Control+K]', 'castle');
    expect(await body.inputValue()).toBe('## Dusk\n\nWe walked to the [castle](https://)');
    await typeInto(body, '[End]', ' at ', '[Control+B]', 'noon', '[Control+I]');
    expect(await body.inputValue()).toBe('## Dusk\n\nWe walked to the [castle](https://) at **noon_italic text_**');
    await body.press('Control+Z'); // the browser's own undo takes the last insertion back
    expect(await body.inputValue()).toBe('## Dusk\n\nWe walked to the [castle](https://) at **noon**');
    await body.fill('## Dusk\n\nWe walked to the [castle](https://example.com/castle) at **noon**.\n\n');

    // The toolbar is one stop for Tab; arrows move along it.
    await page.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Italic');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Add a picture');

    // A picture by the toolbar's button: uploaded, then its Markdown at the caret.
    await body.evaluate((t: HTMLTextAreaElement) => t.setSelectionRange(t.value.length, t.value.length));
    // A slow connection (Chromium's own throttling), so the upload's progress can be seen.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 50, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add a picture' }).click();
    await (await chooser).setFiles({ name: 'tiled-wall.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(1200, 800) });
    const progress = page.getByRole('progressbar', { name: 'Uploading tiled-wall.jpg' });
    await progress.waitFor();
    expect(await body.inputValue()).toContain('![Uploading tiled-wall.jpg (1)…]()');
    await expect.poll(() => body.inputValue(), UPLOAD).toMatch(BODY_IMAGE('tiled wall', 1200, 800));
    expect(await progress.count()).toBe(0);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    // A picture dropped on the text: the same, on a line of its own.
    await body.evaluate((t: HTMLTextAreaElement) => t.setSelectionRange(t.value.length, t.value.length));
    await dropFiles(page, body, [{ name: 'harbour.png', type: 'image/png', bytes: await pngImage(800, 1000) }]);
    await expect.poll(() => body.inputValue(), UPLOAD).toMatch(BODY_IMAGE('harbour', 800, 1000));
    expect(await body.inputValue()).not.toContain('Uploading');

    // Refusals say why, with the pipeline's own words: not a picture, or too large.
    await dropFiles(page, body, [{ name: 'notes.txt', type: 'text/plain', bytes: TEXT_FILE }]);
    const refusal = page.getByTestId('body-upload-error');
    expect(await refusal.textContent()).toBe('Image upload failed. Must be a JPEG, PNG, WebP or GIF image.');
    await dropFiles(page, body, [{ name: 'huge.png', type: 'image/png', bytes: Buffer.alloc(1.5 * 1024 * 1024) }]);
    expect(await refusal.textContent()).toBe('Image upload failed. Must be at most 1 MB.');
    // A file that claims to be a picture is judged by the server's pipeline, which refuses it.
    expectedRefusals = [415];
    await dropFiles(page, body, [{ name: 'fake.png', type: 'image/png', bytes: TEXT_FILE }]);
    await expect.poll(() => refusal.textContent(), UPLOAD).toBe('Image upload failed. Must be a JPEG, PNG, WebP or GIF image.');
    await expect.poll(() => body.inputValue(), UPLOAD).not.toContain('Uploading');
    expect(await body.getAttribute('aria-describedby')).toContain('long_description-upload-error');
    expect(await axeViolations(page)).toEqual([]);

    // Preview, reached by the keyboard: arrows move between the tabs.
    await write.focus();
    await page.keyboard.press('ArrowRight');
    expect(await previewTab.getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Preview');
    const preview = page.getByTestId('preview').getByTestId('long-description');
    await preview.locator('h2').waitFor();
    expect(await body.isVisible()).toBe(false);
    await screenshot(page, 'writing-tools-preview-desktop-light');
    expect(await axeViolations(page)).toEqual([]);
    // The pictures' enlarge buttons come with the body's tools, which load after the body shows
    // (docs/decisions/077): compare the preview and the page once each has them.
    const toolsRan = (root: typeof preview) => expect.poll(() => root.locator('[data-lightbox]').count()).toBeGreaterThan(0);
    await toolsRan(preview);
    const previewHtml = await preview.innerHTML();
    expect(previewHtml).toContain('<h2>Dusk</h2>');
    expect(previewHtml).toContain('<a href="https://example.com/castle" rel="ugc noopener">castle</a>');
    expect(previewHtml).toMatch(/<img src="\/uploads\/[0-9a-f-]{36}-1600\.webp" alt="tiled wall" width="1200" height="800" srcset="[^"]+ 400w, [^"]+ 800w, [^"]+ 1600w" sizes="[^"]+" loading="lazy" decoding="async">/);
    await page.keyboard.press('ArrowLeft');
    expect(await body.isVisible()).toBe(true);
    // The renderer is for writers: a visitor's post is refused.
    const anonymous = new FormData();
    anonymous.set('long_description', '# Hi');
    expect((await fetch(`${server.url}/blog-preview`, { method: 'POST', body: anonymous, headers: { origin: server.url } })).status).toBe(401);

    // Published: the page shows the same HTML, and the pictures load under its CSP.
    await publish(page, `Pictures in the body ${Date.now()}`);
    const pageBody = page.getByTestId('long-description');
    await toolsRan(pageBody);
    expect(await pageBody.innerHTML()).toBe(previewHtml);
    for (const img of await pageBody.locator('img').all()) {
      await scrollToElement(img);
      await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), UPLOAD).toBe(true);
    }
    expect(await pageBody.locator('img').count()).toBe(2);
  });

  it('without JavaScript the body is a plain field and the form still sends', async () => {
    browser = await openBrowser({ javaScriptEnabled: false });
    const { page, context } = browser;
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByRole('toolbar').count()).toBe(0);
    await page.getByLabel('Long description').fill('## Still Markdown');
    await publish(page, `Written without JavaScript ${Date.now()}`);
    expect((await page.getByTestId('long-description').innerHTML()).trim()).toBe('<h2>Still Markdown</h2>');
  });

  it('marks invalid fields with a red border tied to their message, and a stale error goes once its field is edited', async () => {
    browser = await openBrowser({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
    const { page, context } = browser;
    const taken = await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Add Blog' }).click();
    const titleField = page.getByLabel('Title');
    await expect.poll(() => titleField.getAttribute('aria-invalid')).toBe('true');
    const { border, error } = await borderAndErrorColour(titleField);
    expect(border).toBe(error);
    expect(await page.getByTestId('category-error').textContent()).toBe('Choose a category.');
    expect(await page.getByLabel('Category').getAttribute('aria-describedby')).toBe('category-error');
    const categoryColours = await borderAndErrorColour(page.getByLabel('Category'));
    expect(categoryColours.border).toBe(categoryColours.error);
    await screenshot(page, 'writing-tools-errors-phone-dark');
    // Typing a title takes its error away; the others stay until fixed.
    await titleField.fill('A title');
    expect(await titleField.getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByTestId('title-error').count()).toBe(0);
    expect(await page.getByLabel('Category').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Category').selectOption('Education');
    expect(await page.getByTestId('category-error').count()).toBe(0);

    // Signing up again with a taken address: the email is marked; changing it clears the message.
    expectedRefusals = [422];
    await context.clearCookies();
    await page.goto(`${server.url}/register`);
    await waitForHydration(page);
    const email = page.getByLabel('Email');
    await email.fill(taken.email);
    await page.getByLabel('Name').fill('Second');
    await page.getByLabel('Password', { exact: true }).fill('Sunset123');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: MESSAGES.signupErrorTitle });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(MESSAGES.emailTaken);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('aria-describedby')).toContain('register-error');
    const emailColours = await borderAndErrorColour(email);
    expect(emailColours.border).toBe(emailColours.error);
    expect(await axeViolations(page)).toEqual([]);
    await email.fill(`other-${taken.email}`);
    expect(await page.getByTestId('form-error').count()).toBe(0);
    expect(await email.getAttribute('aria-invalid')).toBeNull();
  });
});
