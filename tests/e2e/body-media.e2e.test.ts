import { beforeAll, describe, expect, it } from 'vitest';
import { jpegImage } from '../support/images';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { openBrowser, screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { TEST_DIALECTS } from '../support/databases';
import { useServer } from '../support/server';

const CODE = 'const light = "amber";\nconsole.log(`dusk: ${light}`); // at seven';
const VIDEO_HOSTS = /youtube\.com|youtube-nocookie\.com|youtu\.be|vimeo\.com|ytimg\.com/;

/** Code, a captioned picture and a video link, as a writer types them (docs/decisions/063). */
const body = (photo: string) => `Notes from the quay.

\`\`\`js
${CODE}
\`\`\`

![The harbour at dusk](${photo}#1000x625 "The harbour, ten minutes after sunset")

https://www.youtube.com/watch?v=dQw4w9WgXcQ

That was the evening.`;

describe.each(TEST_DIALECTS)('code, pictures and embeds in a post (%s)', (dialect) => {
  const server = useServer({}, dialect);
  const { open } = useBrowsers();
  let blogId = '';

  beforeAll(async () => {
    const writer = await openBrowser();
    await signUp(writer.context, server.url, { name: 'Quay Writer' });
    const photo = await uploadPhoto(writer.context, server.url);
    blogId = await seedBlog(writer.context, server.url, { title: 'An evening on the quay', long_description: body(photo), photo });
    await writer.close();
  });

  it('copies code, opens a picture large and closes it with Escape, and loads the video only on a click', async () => {
    const { context, page } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const videoRequests: string[] = [];
    context.on('request', (request) => {
      if (VIDEO_HOSTS.test(new URL(request.url()).hostname)) videoRequests.push(request.url());
    });
    // The player stands in for YouTube's (the test machine has no way out); the CSP is checked by the browser before any request.
    await context.route('https://www.youtube-nocookie.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title><p>player</p>' }));
    const response = await page.goto(`${server.url}/blogs/${blogId}`);
    expect(response?.headers()['content-security-policy']).toContain('frame-src https://www.youtube-nocookie.com https://player.vimeo.com');
    await waitForHydration(page);
    const article = page.getByTestId('long-description');

    // Highlighted when it was saved: the page ships spans, no highlighter.
    expect(await article.locator('pre code span.hljs-string').first().textContent()).toBe('"amber"');

    const copy = article.getByRole('button', { name: 'Copy code' });
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${CODE}\n`);
    await page.getByRole('status').filter({ hasText: 'Code copied to the clipboard.' }).waitFor();

    const picture = article.getByRole('button', { name: 'Enlarge picture: The harbour at dusk' });
    expect(await article.locator('figure figcaption').first().textContent()).toBe('The harbour, ten minutes after sunset');
    await picture.click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.getByRole('img', { name: 'The harbour at dusk' }).waitFor();
    expect(await lightbox.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect(await lightbox.locator('img').getAttribute('src')).toMatch(/-1600\.webp$/);
    expect(await axeViolations(page)).toEqual([]);
    await lightbox.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    if (dialect === 'sqlite') await screenshot(page, 'body-media-lightbox-desktop-light');
    await page.keyboard.press('Escape');
    await expect.poll(() => lightbox.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    expect(await picture.evaluate((el) => el === document.activeElement)).toBe(true);
    // The close button does the same.
    await picture.press('Enter');
    await lightbox.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => lightbox.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);

    // Nothing from the video's site until the reader asks.
    expect(await article.locator('iframe').count()).toBe(0);
    expect(videoRequests).toEqual([]);
    await article.getByRole('button', { name: 'Load video from youtube.com' }).click();
    const frame = article.locator('iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1');
    expect(await frame.getAttribute('title')).toBe('Video from youtube.com: https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(await frame.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => videoRequests.filter((url) => url.startsWith('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')).length).toBe(1);
    expect(await page.frameLocator('iframe').locator('p').textContent()).toBe('player');
    if (dialect === 'sqlite') await screenshot(page, 'body-media-video-loaded-desktop-light');
  });

  it('reads the same without JavaScript: the code, the captioned picture and the video as a link, with nothing to press', async () => {
    const { page } = await open({ javaScriptEnabled: false });
    await page.goto(`${server.url}/blogs/${blogId}`);
    const article = page.getByTestId('long-description');
    expect(await article.locator('pre code').textContent()).toBe(`${CODE}\n`);
    expect(await article.getByRole('button').count()).toBe(0);
    expect(await article.getByRole('link', { name: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }).getAttribute('href')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(await article.locator('figure img').getAttribute('alt')).toBe('The harbour at dusk');
  });

  if (dialect === 'sqlite') {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`looks right on a ${name} (${colorScheme}) with no axe violations`, async () => {
          const { page } = await open({ viewport, colorScheme });
          await page.goto(`${server.url}/blogs/${blogId}`);
          await waitForHydration(page);
          const article = page.getByTestId('long-description');
          await article.getByRole('button', { name: 'Copy code' }).waitFor();
          await article.locator('img').evaluate((img: HTMLImageElement) => (img.loading = 'eager'));
          await article.locator('img').evaluate((img: HTMLImageElement) => img.decode());
          expect(await axeViolations(page)).toEqual([]);
          await screenshot(page, `body-media-${name}-${colorScheme}`);
        });
      }
    }
  }
});

describe('the editor asks for every picture’s description (docs/decisions/063)', () => {
  const server = useServer();
  const { open } = useBrowsers();

  for (const [name, viewport, colorScheme] of [['desktop', VIEWPORTS.desktop, 'light'], ['phone', VIEWPORTS.phone, 'dark']] as const) {
    it(`prompts on upload and warns, without blocking, of pictures with none (${name}, ${colorScheme})`, async () => {
      const { context, page } = await open({ viewport, colorScheme });
      await signUp(context, server.url);
      await page.goto(`${server.url}/addBlog`);
      await waitForHydration(page);
      const body = page.getByLabel('Long description');
      await body.fill('Evening notes.\n\n');
      await body.blur();
      await page.getByTestId('body-image-input').setInputFiles({ name: 'IMG_2034.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(1200, 800) });
      const description = page.getByLabel('Describe this picture for readers who cannot see it');
      await expect.poll(() => description.evaluate((el) => el === document.activeElement), { timeout: 30_000 }).toBe(true);
      // The file's name is offered, selected, so typing replaces it.
      expect(await description.inputValue()).toBe('IMG 2034');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `body-media-alt-prompt-${name}-${colorScheme}`);
      await description.fill('The harbour at dusk');
      await description.press('Enter');
      expect(await body.inputValue()).toMatch(/^Evening notes\.\n\n!\[The harbour at dusk\]\(\/uploads\/[0-9a-f-]{36}-1600\.webp#1200x800\)$/);
      expect(await body.evaluate((el) => el === document.activeElement)).toBe(true);

      // A picture with no description: named in a warning, which offers the same prompt.
      const warning = page.getByTestId('alt-warning');
      expect(await warning.textContent()).toBe('');
      await body.press('End');
      await body.pressSequentially('\n\n![](/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp)');
      await warning.getByText('A picture has no description for readers who cannot see it. You can still save; adding one helps them.').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `body-media-alt-warning-${name}-${colorScheme}`);
      await warning.getByRole('button', { name: 'Describe 0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp' }).click();
      await description.fill('A tiled wall');
      await page.getByRole('button', { name: 'Save description' }).click();
      expect(await body.inputValue()).toContain('![A tiled wall](/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp)');
      await expect.poll(() => warning.textContent()).toBe('');
    });
  }
});
