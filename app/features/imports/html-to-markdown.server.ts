/**
 * The one HTML → Markdown converter every importer uses (docs/decisions/073): turndown with the
 * GFM tables, strikethrough and task lists, plus our own rules so the result is what our renderer
 * shows best — a captioned picture as `![alt](src "caption")` (a figure, decision 063), a code
 * block fenced with its language, a video or audio player as its bare link on its own line (a
 * click-to-load embed), every address made absolute against the old site's. Deterministic, and
 * broken HTML never throws: the HTML5 parser under turndown repairs it as a browser would.
 */
import { Parser } from 'htmlparser2';
import TurndownService from 'turndown';
import { strikethrough, tables, taskListItems } from 'turndown-plugin-gfm';

/** The part of the parser's element the rules read. */
interface Element {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): ArrayLike<Element>;
  replaceWith(text: string): void;
  classList: { contains(name: string): boolean };
}

/** Addresses kept as links: anything else (javascript:, data:, vbscript:) is dropped, its text kept. */
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** The address absolute against the old site (or as written when there is no base), or null when unusable. */
export function resolveUrl(raw: string | null | undefined, baseUrl: string | null): string | null {
  const href = (raw ?? '').trim();
  if (!href || href.startsWith('#')) return href.startsWith('#') && href.length > 1 ? href : null;
  try {
    const url = baseUrl ? new URL(href, baseUrl) : new URL(href.startsWith('//') ? `https:${href}` : href);
    if (!SAFE_SCHEMES.has(url.protocol)) return null;
    // Parentheses and spaces would end a Markdown link early: encoded, the address is the same.
    return url.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
  } catch {
    // A relative address with no base to resolve it against stays as the writer wrote it.
    return !baseUrl && /^[\w./~%-][^\s"'<>()]*$/.test(href) && !/^[a-z][\w+.-]*:/i.test(href) ? href : null;
  }
}

/** A player's page for a framed player (`/embed/ID` → `watch?v=ID`), so our renderer recognises it. */
function playerLink(src: string): string {
  const youtube = /^https:\/\/(?:www\.)?youtube(?:-nocookie)?\.com\/embed\/([\w-]{11})/.exec(src);
  if (youtube) return `https://www.youtube.com/watch?v=${youtube[1]}`;
  const vimeo = /^https:\/\/player\.vimeo\.com\/video\/(\d{1,12})/.exec(src);
  if (vimeo) return `https://vimeo.com/${vimeo[1]}`;
  return src;
}

const oneLine = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const escapeAlt = (text: string) => oneLine(text).replace(/([\\[\]])/g, '\\$1');
const escapeTitle = (text: string) => oneLine(text).replace(/(["\\])/g, '\\$1');

function imageSource(img: Element, baseUrl: string | null): string | null {
  const src = img.getAttribute('src');
  const lazy = img.getAttribute('data-src') ?? img.getAttribute('data-orig-file') ?? img.getAttribute('data-lazy-src');
  return resolveUrl(src && !src.startsWith('data:') ? src : lazy, baseUrl);
}

function imageMarkdown(img: Element, baseUrl: string | null, caption?: string): string {
  const src = imageSource(img, baseUrl);
  if (!src) return '';
  const title = caption || img.getAttribute('title') || '';
  return `![${escapeAlt(img.getAttribute('alt') ?? '')}](${src}${title ? ` "${escapeTitle(title)}"` : ''})`;
}

const PLATFORM_WIDGETS = ['subscription-widget-wrap', 'subscription-widget-wrap-editor', 'button-wrapper', 'image-link-expand', 'share-dialog', 'post-ufi'];

const block = (content: string) => (content ? `\n\n${content}\n\n` : '');

/** The language a code block names: `language-x`/`lang-x` classes, SyntaxHighlighter's `brush: x`, or data attributes. */
function codeLanguage(pre: Element): string {
  const code = pre.querySelector('code');
  for (const el of [code, pre]) {
    if (!el) continue;
    const named = el.getAttribute('data-language') ?? el.getAttribute('data-lang') ?? el.getAttribute('data-code-block-lang') ?? el.getAttribute('lang');
    if (named && /^[\w+#.-]{1,30}$/.test(named)) return named.toLowerCase();
    const cls = el.getAttribute('class') ?? '';
    const match = /(?:^|\s)(?:language|lang)-([\w+#.-]{1,30})/.exec(cls) ?? /brush:\s*([\w+#.-]{1,30})/.exec(cls);
    if (match) return match[1]!.toLowerCase();
  }
  return '';
}

function converter(baseUrl: string | null): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  service.use([tables, strikethrough, taskListItems]);
  service.remove(['script', 'style', 'noscript', 'template', 'head', 'form', 'button', 'select', 'textarea', 'input']);

  // A platform's own widgets (subscribe boxes and buttons, "expand" icons) are no part of the post.
  service.addRule('platform widgets', {
    filter: (node) => PLATFORM_WIDGETS.some((name) => (node as unknown as Element).classList?.contains(name)),
    replacement: () => '',
  });

  service.addRule('figure', {
    filter: (node) => node.nodeName === 'FIGURE',
    replacement: (content, node) => {
      const figure = node as unknown as Element;
      const frame = figure.querySelector('iframe');
      if (frame) return block(resolveUrl(frame.getAttribute('src'), baseUrl) ? playerLink(resolveUrl(frame.getAttribute('src'), baseUrl)!) : '');
      const images = Array.from(figure.querySelectorAll('img'));
      if (images.length === 0) {
        // Gutenberg's embed block: the address alone in a wrapper, kept bare so it stays one link.
        const text = oneLine(figure.textContent);
        const url = /^https?:\/\/\S+$/.test(text) ? resolveUrl(text, baseUrl) : null;
        return url ? block(playerLink(url)) : block(content.trim());
      }
      const caption = oneLine(figure.querySelector('figcaption')?.textContent);
      if (images.length === 1) return block(imageMarkdown(images[0]!, baseUrl, caption));
      const pictures = images.map((img) => imageMarkdown(img, baseUrl)).filter(Boolean);
      return block([...pictures, caption ? `_${caption.replace(/([\\_*[\]])/g, '\\$1')}_` : ''].filter(Boolean).join('\n\n'));
    },
  });

  service.addRule('frames', {
    filter: ['iframe', 'embed', 'video', 'audio'],
    replacement: (_content, node) => {
      const el = node as unknown as Element;
      const src = el.getAttribute('src') ?? el.querySelector('source')?.getAttribute('src');
      const url = resolveUrl(src, baseUrl);
      return url && /^https?:/.test(url) ? block(playerLink(url)) : '';
    },
  });

  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => imageMarkdown(node as unknown as Element, baseUrl),
  });

  service.addRule('link', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const el = node as unknown as Element;
      const href = resolveUrl(el.getAttribute('href'), baseUrl);
      const text = content.trim();
      if (!href) return content;
      if (!text) return '';
      const title = oneLine(el.getAttribute('title'));
      return `[${text}](${href}${title ? ` "${escapeTitle(title)}"` : ''})`;
    },
  });

  service.addRule('code block', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as unknown as Element;
      // Some editors (Medium's) break lines in code with <br>.
      for (const br of Array.from(pre.querySelectorAll('br'))) br.replaceWith('\n');
      const code = (pre.textContent ?? '').replace(/\n$/, '');
      const runs = code.match(/`{3,}/g) ?? [];
      const fence = '`'.repeat(Math.max(3, ...runs.map((run) => run.length + 1)));
      return `\n\n${fence}${codeLanguage(pre)}\n${code}\n${fence}\n\n`;
    },
  });
  return service;
}

// One converter per base address: the rules close over it. Imports convert thousands of bodies
// against one or two bases, so a small map keeps building them off the hot path.
const converters = new Map<string | null, TurndownService>();

/** The body's HTML as our Markdown; relative addresses resolved against `baseUrl` (the old site). */
export function htmlToMarkdown(html: string, baseUrl: string | null): string {
  let service = converters.get(baseUrl);
  if (!service) {
    if (converters.size > 16) converters.clear();
    service = converter(baseUrl);
    converters.set(baseUrl, service);
  }
  const markdown = service.turndown(html || '');
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}

/** Every picture the Markdown shows, by the exact address it holds (what the importer replaces). */
export function markdownImageUrls(markdown: string): string[] {
  const urls = new Set<string>();
  for (const match of markdown.matchAll(/!\[(?:\\.|[^\]\\\n])*\]\(([^\s)]+)/g)) urls.add(match[1]!);
  return [...urls];
}


const TEXT_BREAKS = new Set(['p', 'div', 'blockquote', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'tr']);

/**
 * A short HTML text (a comment, an excerpt, a subtitle) as plain text: paragraphs as blank lines,
 * `<br>` as a line break, a link's address kept after its words when they differ.
 */
export function htmlToText(html: string): string {
  let out = '';
  const hrefs: { raw: string; href: string | null }[] = [];
  let linkText = '';
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'br') out += '\n';
        if (name === 'a') {
          hrefs.push({ raw: (attrs.href ?? '').trim(), href: resolveUrl(attrs.href, null) });
          linkText = '';
        }
      },
      ontext(text) {
        out += text;
        linkText += text;
      },
      onclosetag(name) {
        if (TEXT_BREAKS.has(name)) out += '\n\n';
        if (name === 'a') {
          const link = hrefs.pop();
          const words = linkText.trim();
          if (link?.href && /^https?:/.test(link.href) && words && words !== link.raw && words !== link.href) out += ` (${link.href})`;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html || '');
  parser.end();
  return out
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
