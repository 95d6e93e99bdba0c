import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.server';

describe('renderMarkdown', () => {
  it('renders GitHub-flavoured Markdown: tables, strikethrough, task lists, fenced code', () => {
    const html = renderMarkdown('# Dusk\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~\n\n- [x] done\n\n```js\nlet x = 1;\n```\n');
    expect(html).toContain('<h1>Dusk</h1>');
    expect(html).toContain('<table>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*aria-label="Done"/);
    expect(html).toContain('<code class="language-js">');
  });

  it('removes scripts, event handlers and javascript: links', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src="x" onerror="alert(1)">\n\n[click](javascript:alert(1))\n\n<a href="//evil.example">x</a>');
    expect(html).not.toMatch(/<script|onerror|javascript:|\/\/evil/i);
  });

  it('marks links as untrusted', () => {
    expect(renderMarkdown('[site](https://example.org)')).toContain('rel="nofollow ugc noopener"');
  });
});
