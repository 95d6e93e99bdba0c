/**
 * Markdown to sanitised HTML, the work itself: run inside the render pool's worker threads
 * (markdown.worker.ts), never on the server's main thread (docs/decisions/047). Its imports are
 * relative with their `.ts` extension, so Node loads the worker from the sources too (tests, dev).
 */
import { randomBytes } from 'node:crypto';
import markdownIt, { type MarkdownIt, type StateCore } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { imageSrcSet, STORED_NAME } from '../images/images.schema.ts';
import { embedOf, embedPlaceholder } from './markdown-embeds.ts';
import { highlightClasses, highlightCode, resetHighlightBudget } from './markdown-highlight.ts';

/** The body's column is 42rem wide on a desktop and the screen's width on a phone (decision 027). */
const BODY_IMAGE_SIZES = '(min-width: 48rem) 42rem, 100vw';

/** `#1600x1067` after our image's URL: the shown size the editor wrote (docs/decisions/030). */
const SIZE_FRAGMENT = /#(\d{1,5})x(\d{1,5})$/;

/** A foreign picture's link is always `nofollow`, whoever wrote it (decision 030). */
export const HELD_REL = 'nofollow ugc noopener';

export interface RenderTask {
  markdown: string;
  /** Where our own images live (`ownImageBases(config)`); any other picture becomes a link. */
  bases: readonly string[];
  /** The rel of the body's links: `ugc noopener`, or with `nofollow` for a held writer (decision 029). */
  rel: string;
}

/**
 * An image in a body is shown only when it is ours (uploaded through the pipeline): it passes the
 * CSP and cannot track readers. Its size comes from the fragment, so the page does not jump;
 * the other widths go to `srcset`. Any other picture becomes a link to it, with its alt text.
 */
function bodyImage(bases: readonly string[]): sanitizeHtml.Transformer {
  return (_tagName, attribs): sanitizeHtml.Tag => {
    const src = attribs.src ?? '';
    const alt = attribs.alt ?? '';
    const url = src.replace(SIZE_FRAGMENT, '');
    const base = bases.find((b) => url.startsWith(b));
    if (!base || !STORED_NAME.test(url.slice(base.length))) {
      return { tagName: 'a', attribs: { href: src, rel: HELD_REL }, text: alt || src };
    }
    const size = src.match(SIZE_FRAGMENT);
    const srcset = imageSrcSet(url);
    const shown: sanitizeHtml.Attributes = { src: url, alt };
    if (attribs.title) shown.title = attribs.title;
    if (size) Object.assign(shown, { width: size[1], height: size[2] });
    if (srcset) Object.assign(shown, { srcset, sizes: BODY_IMAGE_SIZES });
    return { tagName: 'img', attribs: { ...shown, loading: 'lazy', decoding: 'async' } };
  };
}

/**
 * The long description is GitHub-flavoured Markdown (docs/product.md#long-description). Writers are untrusted, so the
 * HTML is sanitised after rendering: no scripts, styles, event handlers or foreign schemes.
 */
const sanitizeOptions = (bases: readonly string[], rel: string): sanitizeHtml.IOptions => ({
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input', 'span', 'figure', 'figcaption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
    code: ['class'],
    span: ['class'],
    pre: ['tabindex'],
    th: ['align'],
    td: ['align'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled', 'aria-label'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Highlighted code's classes, exactly those the highlighter produces (docs/decisions/063).
  allowedClasses: { code: [/^language-[\w-]+$/], span: HIGHLIGHT_CLASSES },
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel }),
    img: bodyImage(bases),
    // A long line scrolls inside its block: the block takes focus, so the keyboard can scroll it too.
    pre: () => ({ tagName: 'pre', attribs: { tabindex: '0' } }),
    // A task list's checkboxes are read-only marks; the label says what they show.
    input: (tagName, attribs) => ({
      tagName,
      attribs: { type: attribs.type ?? '', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}), 'aria-label': attribs.checked !== undefined ? 'Done' : 'Not done' },
    }),
  },
});

let HIGHLIGHT_CLASSES: string[] = [];

/** After `www.`, the rest of a host and an optional port and path (GFM's extended www autolink). */
const WWW_TAIL = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d{1,5})?(?:[/?#][^\s<>"]*)?/i;
/** GFM leaves trailing punctuation out of an autolink. */
const TRAILING_PUNCTUATION = /[.,:;!?'")\]*_~]+$/;
const TASK = /^\[([ xX])\] /;

/**
 * markdown-it with GitHub's extensions: tables, `~~strikethrough~~` (as `<del>`), autolinks for
 * addresses with a scheme or starting `www.` (as GFM; bare domains stay text), task lists, and
 * raw HTML for the sanitiser to clean. Its time grows linearly with the text on every
 * pathological input we measured (docs/decisions/047); `maxNesting` (100) bounds its depth.
 */
function createParser(): MarkdownIt {
  // Fenced code with a language is highlighted here, once per render, never in the reader's page.
  const md = markdownIt({ html: true, linkify: true, typographer: false, highlight: highlightCode });
  // Every address is left to the sanitiser, which alone decides what a reader can follow.
  md.validateLink = () => true;
  md.linkify.set({ fuzzyLink: false });
  md.linkify.add('www.', {
    validate: (text, pos) => text.slice(pos, pos + 2100).match(WWW_TAIL)?.[0].replace(TRAILING_PUNCTUATION, '').length ?? 0,
    normalize: (match) => {
      match.url = `http://${match.url}`;
    },
  });
  md.renderer.rules.s_open = () => '<del>';
  md.renderer.rules.s_close = () => '</del>';
  md.core.ruler.push('gfm_details', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      // A table cell's alignment as the `align` attribute the sanitiser keeps (not a style).
      const style = token.attrGet('style');
      if ((token.type === 'th_open' || token.type === 'td_open') && style) {
        token.attrs = [['align', String(style).replace('text-align:', '')]];
      }
      // `- [x] done`: a list item's paragraph starting with a box becomes a read-only checkbox.
      const first = token.type === 'inline' && tokens[i - 2]?.type === 'list_item_open' ? token.children?.[0] : undefined;
      const box = first?.type === 'text' ? first.content.match(TASK) : null;
      if (first && box) {
        first.content = first.content.slice(box[0].length);
        const input = new state.Token('html_inline', '', 0);
        input.content = `<input type="checkbox" disabled${box[1] === ' ' ? '' : ' checked'}> `;
        token.children!.unshift(input);
      }
    }
  });
  md.core.ruler.push('figures_and_embeds', figuresAndEmbeds);
  return md;
}

type RenderEnv = Record<PropertyKey, unknown> & { embeds: string[]; rel: string };

/**
 * Stands for a placeholder in the parser's output until the sanitiser is done, then makes way for
 * the placeholder's markup (buttons and data attributes the sanitiser rightly refuses from
 * writers). Random per worker, so no body can name one.
 */
const EMBED_MARK = `agembed${randomBytes(12).toString('hex')}n`;
const EMBED_MARKS = new RegExp(`<p>${EMBED_MARK}(\\d+)</p>\n?`, 'g');

/**
 * A paragraph holding nothing but a picture with a title (`![alt](src "caption")`) becomes a
 * figure with that caption; one holding nothing but a video or audio link becomes a placeholder
 * that loads nothing from the other site until the reader asks (docs/decisions/063).
 */
function figuresAndEmbeds(state: StateCore): void {
  const tokens = state.tokens;
  const env = state.env as Partial<RenderEnv>;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [open, inline, close] = [tokens[i]!, tokens[i + 1]!, tokens[i + 2]!];
    if (open.type !== 'paragraph_open' || open.hidden || inline.type !== 'inline' || close.type !== 'paragraph_close') continue;
    const children = inline.children ?? [];
    const image = children.length === 1 && children[0]!.type === 'image' ? children[0]! : undefined;
    const caption = String(image?.attrGet('title') ?? '');
    if (image && caption) {
      open.tag = close.tag = 'figure';
      image.attrs = (image.attrs ?? []).filter(([name]) => name !== 'title');
      const figcaption = [new state.Token('html_inline', '', 0), new state.Token('text', '', 0), new state.Token('html_inline', '', 0)];
      figcaption[0]!.content = '<figcaption>';
      figcaption[1]!.content = caption;
      figcaption[2]!.content = '</figcaption>';
      children.push(...figcaption);
      continue;
    }
    const link = children.length === 3 && children[0]!.type === 'link_open' && children[1]!.type === 'text' && children[2]!.type === 'link_close';
    const embed = link && env.embeds ? embedOf(String(children[0]!.attrGet('href') ?? '')) : null;
    if (!embed || !env.embeds) continue;
    const mark = new state.Token('html_block', '', 0);
    mark.content = `<p>${EMBED_MARK}${env.embeds.length}</p>\n`;
    env.embeds.push(embedPlaceholder(embed, children[1]!.content, env.rel ?? ''));
    tokens.splice(i, 3, mark);
  }
}

let parser: MarkdownIt | undefined;
const optionsFor = new Map<string, sanitizeHtml.IOptions>();

export function renderSanitised({ markdown, bases, rel }: RenderTask): string {
  if (!parser) {
    HIGHLIGHT_CLASSES = highlightClasses();
    parser = createParser();
  }
  const key = `${rel}\n${bases.join(' ')}`;
  let options = optionsFor.get(key);
  if (!options) optionsFor.set(key, (options = sanitizeOptions(bases, rel)));
  const env: RenderEnv = { embeds: [], rel };
  resetHighlightBudget();
  const html = sanitizeHtml(parser.render(markdown, env), options);
  return env.embeds.length === 0 ? html : html.replace(EMBED_MARKS, (_, n: string) => env.embeds[Number(n)] ?? '');
}

/**
 * HTML from another server (a followed account's post, docs/decisions/081) through the same
 * allowlist as our own bodies: no scripts, styles or handlers; its links marked `nofollow ugc`;
 * a picture that is not ours becomes a link to it, so it neither passes the CSP nor tracks readers.
 */
export function sanitiseForeignHtml(html: string, bases: readonly string[]): string {
  // Its own key: no highlighter classes are allowed in it, whatever our own bodies allow.
  const key = `foreign\n${bases.join(' ')}`;
  let options = optionsFor.get(key);
  if (!options) optionsFor.set(key, (options = { ...sanitizeOptions(bases, HELD_REL), allowedClasses: { code: [], span: [] } }));
  return sanitizeHtml(html, options);
}
