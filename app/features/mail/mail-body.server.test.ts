import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from '#test/browser';
import { tempDirs } from '#test/temp-dirs';
import { loadConfig } from '#server/config.server';
import { closeMarkdownPool, renderMarkdown } from '~/features/blogs/blogs.service.server';
import type { MailBlog, QueuedMail } from './mail.service.server';
import { renderQueuedMail } from './mail-templates.server';

const dirs = tempDirs();
afterAll(async () => {
  dirs.removeAll();
  await closeMarkdownPool();
});

const PICTURE = '/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp';
const POST = `A walk at dusk, with notes.

![The harbour at dusk](${PICTURE}#1600x900 "The harbour")

\`\`\`js
const aVeryLongLineThatAMailClientMustWrapRatherThanScrollSideways = ['dusk', 'harbour', 'lanterns', 'tide', 'gulls', 'salt'];
function glow(t) { return t * 2; }
\`\`\`

| Hour | Light | Note |
|------|:-----:|------|
| 19:00 | gold | the sun touches the water |
| 19:40 | rose | lanterns come on |

Watch it:

https://www.youtube.com/watch?v=dQw4w9WgXcQ

Inline \`code\` and a [link](/allblogs) on our site.
`;

const config = () => loadConfig({ SESSION_SECRET: 's'.repeat(40), PUBLIC_URL: 'https://blog.example.org', DATA_DIR: dirs.make('mail-body-') });
const postMail = (blog: MailBlog): QueuedMail => ({
  id: 'm1',
  messageId: 'msg1',
  email: 'reader@example.org',
  kind: 'post',
  stream: 'newsletter',
  attempts: 0,
  blogs: [blog],
  notices: [],
  confirm: null,
  unsubscribe: { kind: 'newsletter', subscriberId: 's1' },
});
const blog = async (): Promise<MailBlog> => ({
  id: 'b1',
  title: 'Dusk at the harbour',
  shortDescription: 'Gold, then rose.',
  photo: null,
  category: 'Travel Blogs',
  writerName: 'Writer',
  body: { html: await renderMarkdown(POST), markdown: POST },
});

/**
 * Our HTML mail lint (docs/decisions/066): the rules mail clients impose, which a generic HTML
 * validator does not know. Each line names what breaks in which kind of client when it fails.
 */
function mailLint(html: string, origin: string): string[] {
  const problems: string[] = [];
  // Scripts, forms, frames and media never run or load in mail; a button does nothing.
  for (const tag of ['script', 'iframe', 'form', 'button', 'video', 'audio', 'object', 'embed', 'svg', 'link']) {
    if (new RegExp(`<${tag}\\b`, 'i').test(html)) problems.push(`<${tag}> is not allowed in mail`);
  }
  // Gmail clips a message past 102 KB.
  if (Buffer.byteLength(html) > 102_000) problems.push('more than 102 KB: Gmail clips it');
  // One <style> block, in the head, for dark mode only: everything else must be inline.
  const styles = html.match(/<style\b/gi) ?? [];
  if (styles.length > 1 || (styles.length === 1 && html.indexOf('<style') > html.indexOf('</head>'))) problems.push('a <style> block outside the head');
  const bodyPart = html.slice(html.indexOf('<body'));
  // Classes are hooks for the dark block only (ag-*): a class from the site means nothing here.
  for (const m of bodyPart.matchAll(/class="([^"]*)"/g)) if (!m[1]!.split(/\s+/).every((c) => c.startsWith('ag-'))) problems.push(`foreign class "${m[1]}"`);
  for (const m of bodyPart.matchAll(/<img\b[^>]*>/g)) {
    const img = m[0];
    const src = /src="([^"]*)"/.exec(img)?.[1] ?? '';
    if (!src.startsWith(`${origin}/`)) problems.push(`picture not ours or not absolute: ${src}`);
    if (!/\swidth="\d+"/.test(img)) problems.push(`picture without a width attribute (Outlook shows it at its full size): ${src}`);
    if (!/\salt="/.test(img)) problems.push(`picture without alt text: ${src}`);
    if (!/max-width:100%|max-width:\d+px/.test(img)) problems.push(`picture without a max-width (overflows a phone): ${src}`);
  }
  for (const m of bodyPart.matchAll(/<a\b[^>]*href="([^"]*)"/g)) if (!/^(https?:|mailto:)/.test(m[1]!)) problems.push(`relative or odd link: ${m[1]}`);
  for (const m of bodyPart.matchAll(/<pre\b[^>]*>/g)) {
    if (!/white-space:pre-wrap/.test(m[0])) problems.push('a code block that does not wrap (scrolls off a phone)');
    if (!/monospace/.test(m[0])) problems.push('a code block without a monospace face');
  }
  for (const m of bodyPart.matchAll(/<(p|h[1-6]|td|th|li|pre|table)\b([^>]*)>/g)) if (!/style="/.test(m[2]!) && m[1] !== 'li') problems.push(`<${m[1]}> without inline style`);
  return problems;
}

describe('the whole post by mail (docs/decisions/066)', () => {
  it('carries the post set for mail clients, and passes the mail lint', async () => {
    const mail = renderQueuedMail(config(), postMail(await blog()));
    const html = mail.html ?? '';
    expect(mailLint(html, 'https://blog.example.org')).toEqual([]);
    // The picture is ours, absolute, and no wider than the column (height kept in proportion).
    expect(html).toMatch(new RegExp(`<img src="https://blog.example.org${PICTURE}" alt="The harbour at dusk" width="544" height="306"`));
    // Code wraps in a monospace block, without the highlighter's classes.
    expect(html).toMatch(/<pre style="[^"]*white-space:pre-wrap[^"]*monospace/);
    expect(html).not.toContain('hljs');
    // The table, the embed as a plain link (no button, no note about one), our links absolute.
    expect(html).toMatch(/<th align="center" style="[^"]*border:1px solid/);
    expect(html).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
    expect(await renderMarkdown(POST)).toContain('class="embed');
    expect(html).not.toContain('Nothing is loaded');
    expect(html).not.toContain('data-embed');
    expect(html).toContain('href="https://blog.example.org/allblogs"');
    // Light and dark: light inline, dark for clients that honour the media query.
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('content="light dark"');
    // The summary stands under the title, as on the post's page.
    expect(html).toContain('Gold, then rose.');
    // Read on the site, and the one-click unsubscribe we have.
    expect(html).toMatch(/href="https:\/\/blog.example.org\/blogs\/b1"[^>]*>Read on the site</);
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // The plain-text part: the writer's Markdown and the address of the post.
    expect(mail.text).toContain('| 19:40 | rose | lanterns come on |');
    expect(mail.text).toContain('Read on the site: https://blog.example.org/blogs/b1');
  });

  it('a teaser (no body) keeps the card', async () => {
    const { body: _, ...teaser } = await blog();
    const mail = renderQueuedMail(config(), postMail(teaser));
    expect(mail.html).toContain('Read the story');
    expect(mail.html).not.toContain('<pre');
    expect(mail.text).toContain('Gold, then rose.');
  });

  it('the lint catches what it is for', () => {
    const bad = '<html><head></head><body><img src="/uploads/x.webp"><pre style="font:1px serif">x</pre><a href="/x">x</a><p class="prose">x</p><script></script></body></html>';
    expect(mailLint(bad, 'https://blog.example.org')).toHaveLength(10);
  });

  it('reads at 390 and 800 px, light and dark, in Chromium (screenshots)', async () => {
    const html = renderQueuedMail(config(), postMail(await blog())).html ?? '';
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const browser = await launchBrowser();
    try {
      for (const width of [390, 800]) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
          // The picture's address is on the mail's origin: answered here with a real picture.
          await page.route('https://blog.example.org/**', (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="1600" height="900" fill="#ff7e5f"/></svg>' }));
          await page.setContent(html);
          // Nothing overflows the phone's width: the code wraps, the table and the picture fit.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${width} ${colorScheme}`).toBeLessThanOrEqual(0);
          const card = await page.evaluate(() => getComputedStyle(document.querySelector('.ag-card')!).backgroundColor);
          expect(card).toBe(colorScheme === 'dark' ? 'rgb(39, 29, 43)' : 'rgb(255, 255, 255)');
          // The button keeps white on its colour in both schemes.
          const button = await page.getByRole('link', { name: 'Read on the site' }).evaluate((a) => getComputedStyle(a).color);
          expect(button).toBe('rgb(255, 255, 255)');
          await page.screenshot({ path: path.join(SCREENSHOT_DIR, `mail-post-${width}-${colorScheme}.png`), fullPage: true });
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
