import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.server';

describe('renderMarkdown', () => {
  it('renders GitHub-flavoured Markdown: tables, strikethrough, task lists, fenced code', async () => {
    const html = await renderMarkdown('# Dusk\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~\n\n- [x] done\n\n```js\nlet x = 1;\n```\n');
    expect(html).toContain('<h1>Dusk</h1>');
    expect(html).toContain('<table>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*aria-label="Done"/);
    expect(html).toContain('<code class="language-js">');
  });

  it('removes scripts, event handlers and javascript: links', async () => {
    const html = await renderMarkdown('<script>alert(1)</script>\n\n<img src="x" onerror="alert(1)">\n\n[click](javascript:alert(1))\n\n<a href="//evil.example">x</a>');
    expect(html).not.toMatch(/<script|onerror|javascript:|\/\/evil/i);
  });

  it("marks links as the writer's, and a held writer's as nofollow too (decision 029)", async () => {
    expect(await renderMarkdown('[site](https://example.org)')).toContain('rel="ugc noopener"');
    expect(await renderMarkdown('[site](https://example.org)', { nofollow: true })).toContain('rel="nofollow ugc noopener"');
    expect(await renderMarkdown('<a href="https://example.org" rel="follow">x</a>', { nofollow: true })).toContain('rel="nofollow ugc noopener"');
    expect(await renderMarkdown('[x](javascript:alert(1)) <script>1</script>', { nofollow: true })).not.toMatch(/<script|javascript:/i);
  });

  const OWN = '/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp';

  it('shows our own images with their size, every width and lazy loading', async () => {
    const html = await renderMarkdown(`![A tiled wall](${OWN}#1600x1067)`);
    expect(html).toContain(`src="${OWN}"`);
    expect(html).toContain('alt="A tiled wall"');
    expect(html).toContain('width="1600" height="1067"');
    expect(html).toContain('srcset="/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-400.webp 400w,');
    expect(html).toContain('sizes="(min-width: 48rem) 42rem, 100vw"');
    expect(html).toContain('loading="lazy"');
    expect(html).not.toContain('#1600x1067');
  });

  it('shows images from the S3 bucket when that is where ours live', async () => {
    const bases = ['/uploads/', 'https://media.example.com/bucket/'];
    const html = await renderMarkdown('![x](https://media.example.com/bucket/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp)', { imageBases: bases });
    expect(html).toMatch(/<img src="https:\/\/media\.example\.com\/bucket\//);
  });

  it('turns any other picture into a link to it, so nothing off-site is loaded', async () => {
    for (const src of ['https://tracker.example/p.png', '/uploads/../secret.webp', '/uploads/not-ours.png', 'https://media.example.com/other/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp', 'javascript:alert(1)', 'data:image/png;base64,AAAA']) {
      const html = await renderMarkdown(`![a <b>pic</b>](${src})`, { imageBases: ['/uploads/', 'https://media.example.com/bucket/'] });
      expect(html, src).not.toContain('<img');
      expect(html, src).toContain('rel="nofollow ugc noopener"');
      expect(html, src).not.toMatch(/javascript:|data:/);
    }
    const html = await renderMarkdown('<img src="https://tracker.example/p.png" alt="x<script>">');
    expect(html).toBe('<a href="https://tracker.example/p.png" rel="nofollow ugc noopener">x&lt;script&gt;</a>');
  });
});
