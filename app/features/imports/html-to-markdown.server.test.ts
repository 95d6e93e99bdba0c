import { afterAll, describe, expect, it } from 'vitest';
import { closeMarkdownPool, renderMarkdown } from '~/features/blogs/markdown.server';
import { htmlToMarkdown, htmlToText, markdownImageUrls, resolveUrl } from './html-to-markdown.server';

const BASE = 'https://old.example.com/blog/';

afterAll(() => closeMarkdownPool());

describe('htmlToMarkdown', () => {
  it('converts headings, emphasis, lists and links, resolving relative addresses against the old site', () => {
    expect(htmlToMarkdown('<h2>Dusk</h2><p>A <strong>warm</strong> <em>evening</em> on <a href="../about">the hill</a>.</p><ul><li>one</li><li>two</li></ul>', BASE)).toBe(
      '## Dusk\n\nA **warm** _evening_ on [the hill](https://old.example.com/about).\n\n-   one\n-   two',
    );
    expect(htmlToMarkdown('<p><a href="/p/x">x</a> <a href="//cdn.example.com/a.png">cdn</a></p>', 'https://s.example')).toBe('[x](https://s.example/p/x) [cdn](https://cdn.example.com/a.png)');
  });

  it('keeps a relative address as written when the archive names no site', () => {
    expect(htmlToMarkdown('<p><img src="images/a.png" alt="a"></p>', null)).toBe('![a](images/a.png)');
  });

  it('turns a figure with a caption into a picture whose title is the caption, which our renderer shows as a figure', async () => {
    const md = htmlToMarkdown('<figure><img src="/img/wall.jpg" alt="A [tiled] wall"><figcaption>The wall at "dusk"</figcaption></figure>', BASE);
    expect(md).toBe('![A \\[tiled\\] wall](https://old.example.com/img/wall.jpg "The wall at \\"dusk\\"")');
    const html = await renderMarkdown(md, { imageBases: ['https://old.example.com/'] });
    // (The picture is still at the old address, so the renderer links it; the importer makes it ours.)
    expect(html).toMatch(/^<figure>.*<figcaption>The wall at "dusk"<\/figcaption><\/figure>\n$/);
  });

  it('keeps every picture of a figure with several, and its caption as a line under them', () => {
    expect(htmlToMarkdown('<figure><img src="a.jpg" alt="a"><img src="b.jpg" alt="b"><figcaption>Two_views</figcaption></figure>', BASE)).toBe(
      '![a](https://old.example.com/blog/a.jpg)\n\n![b](https://old.example.com/blog/b.jpg)\n\n_Two\\_views_',
    );
  });

  it('fences code blocks with their language, from any of the usual markings', () => {
    expect(htmlToMarkdown('<pre><code class="language-ts">let a = 1;\n</code></pre>', null)).toBe('```ts\nlet a = 1;\n```');
    expect(htmlToMarkdown('<pre class="brush: python; gutter: false">print(1)</pre>', null)).toBe('```python\nprint(1)\n```');
    expect(htmlToMarkdown('<pre data-language="Rust"><code>fn main() {}</code></pre>', null)).toBe('```rust\nfn main() {}\n```');
    // A fence inside the code gets a longer fence around it.
    expect(htmlToMarkdown('<pre><code>```\nx\n```</code></pre>', null)).toBe('````\n```\nx\n```\n````');
  });

  it('converts tables, strikethrough and task lists (GFM)', () => {
    expect(htmlToMarkdown('<table><thead><tr><th>City</th><th>Days</th></tr></thead><tbody><tr><td>Rome</td><td>3</td></tr></tbody></table><p><del>old</del></p>', null)).toBe(
      '| City | Days |\n| --- | --- |\n| Rome | 3 |\n\n~old~',
    );
  });

  it('turns a framed player into its bare link on its own line, which our renderer makes a click-to-load embed', async () => {
    const md = htmlToMarkdown('<p>Watch:</p><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" width="560"></iframe><iframe src="https://player.vimeo.com/video/76979871?h=8"></iframe><p><video src="/media/clip.mp4"></video></p>', BASE);
    expect(md).toBe('Watch:\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nhttps://vimeo.com/76979871\n\nhttps://old.example.com/media/clip.mp4');
    const html = await renderMarkdown(md);
    expect(html).toContain('data-embed="youtube:dQw4w9WgXcQ"');
    expect(html).toContain('data-embed="vimeo:76979871"');
  });

  it('keeps a Gutenberg embed block (the address alone in a wrapper) unescaped', () => {
    expect(htmlToMarkdown('<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=abc_def-123\n</div></figure>', null)).toBe('https://www.youtube.com/watch?v=abc_def-123');
  });

  it('drops scripts, styles and unsafe addresses, keeping the words', () => {
    expect(htmlToMarkdown('<script>alert(1)</script><style>p{}</style><p><a href="javascript:alert(1)">click</a> <img src="data:image/png;base64,AAAA" alt="x"> <img src="vbscript:x"></p>', null)).toBe('click');
  });

  it('reads a lazy-loaded picture from its data-src', () => {
    expect(htmlToMarkdown('<img src="data:image/gif;base64,R0lGOD" data-src="/lazy.png" alt="">', 'https://s.example')).toBe('![](https://s.example/lazy.png)');
  });

  it('never throws on broken HTML, and repairs it as a browser would', () => {
    expect(htmlToMarkdown('<p>Broken <b>bold <i>both</p><div>stray</span> </td></tr> <img src=', null)).toBe('Broken **bold _both_**\n\n**_stray_**');
    expect(htmlToMarkdown('', null)).toBe('');
    expect(htmlToMarkdown('<<<>>>&&&;;<!--', null)).toBe('<<<>>>&&&;;');
  });

  it('keeps emoji and right-to-left text as they are', () => {
    expect(htmlToMarkdown('<p dir="rtl">مرحبا بالعالم 🌅</p>', null)).toBe('مرحبا بالعالم 🌅');
  });

  it('is deterministic: the same HTML gives the same Markdown', () => {
    const html = '<h1>x</h1><p><img src="/a.png" alt="a"></p><pre><code class="language-js">1</code></pre>';
    expect(htmlToMarkdown(html, BASE)).toBe(htmlToMarkdown(html, BASE));
  });
});

describe('markdownImageUrls', () => {
  it('lists each picture once by the exact address the Markdown holds', () => {
    const md = htmlToMarkdown('<p><img src="/a (1).png" alt="x]"></p><figure><img src="/a (1).png"><figcaption>c</figcaption></figure><p><img src="https://cdn.example/b.jpg?w=1"></p><p><a href="/c.png">not a picture</a></p>', 'https://s.example');
    expect(markdownImageUrls(md)).toEqual(['https://s.example/a%20%281%29.png', 'https://cdn.example/b.jpg?w=1']);
  });
});

describe('htmlToText', () => {
  it('keeps paragraphs and line breaks, decodes entities, and keeps a link address after its words', () => {
    expect(htmlToText('<p>Thanks &amp; <a href="https://example.org/x">see this</a></p><p>Line<br>two</p>')).toBe('Thanks & see this (https://example.org/x)\n\nLine\ntwo');
    expect(htmlToText('plain\ntext with <a href="https://example.org">https://example.org</a>')).toBe('plain\ntext with https://example.org');
  });
});

describe('resolveUrl', () => {
  it('refuses schemes that are not web or mail addresses', () => {
    expect(resolveUrl('javascript:alert(1)', BASE)).toBeNull();
    expect(resolveUrl('mailto:a@example.org', BASE)).toBe('mailto:a@example.org');
    expect(resolveUrl('  ', BASE)).toBeNull();
  });
});
