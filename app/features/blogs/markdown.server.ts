import { LRUCache } from 'lru-cache';
import type { Marked } from 'marked';
import type sanitizeHtml from 'sanitize-html';
import { STORED_NAME } from '~/features/images/images.service.server';
import { imageSrcSet } from '~/features/images/images.schema';

/** The body's column is 42rem wide on a desktop and the screen's width on a phone (decision 027). */
const BODY_IMAGE_SIZES = '(min-width: 48rem) 42rem, 100vw';

/** `#1600x1067` after our image's URL: the shown size the editor wrote (docs/decisions/030). */
const SIZE_FRAGMENT = /#(\d{1,5})x(\d{1,5})$/;

/** Links are always the writer's (`ugc`); a writer on the spam hold gets no reputation from them either (decision 029). */
const HELD_REL = 'nofollow ugc noopener';
const TRUSTED_REL = 'ugc noopener';

export interface MarkdownOptions {
  /** Where our own images live (`ownImageBases(config)`); any other picture becomes a link. */
  imageBases?: readonly string[];
  /** The writer is on the spam hold: links get rel="nofollow ugc" (docs/decisions/029). */
  nofollow?: boolean;
  /** A preview passes false: a text being written is read once, and must not push popular bodies out. */
  remember?: boolean;
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
 * The long description is GitHub-flavoured Markdown (BRIEF §2). Writers are untrusted, so the
 * HTML is sanitised after rendering: no scripts, styles, event handlers or foreign schemes.
 */
const sanitizeOptions = (sanitize: typeof sanitizeHtml, bases: readonly string[], rel: string): sanitizeHtml.IOptions => ({
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
    code: ['class'],
    th: ['align'],
    td: ['align'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled', 'aria-label'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  allowedClasses: { code: [/^language-[\w-]+$/] },
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  transformTags: {
    a: sanitize.simpleTransform('a', { rel }),
    img: bodyImage(bases),
    // A task list's checkboxes are read-only marks; the label says what they show.
    input: (tagName, attribs) => ({
      tagName,
      attribs: { type: attribs.type ?? '', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}), 'aria-label': attribs.checked !== undefined ? 'Done' : 'Not done' },
    }),
  },
});

/**
 * Loaded on the first blog body, not at start: sanitize-html (with its HTML and CSS parsers) and
 * marked were a tenth of what the server loaded before its first answer (docs/decisions/032).
 */
let renderer: Promise<(markdown: string, bases: readonly string[], rel: string) => string> | undefined;
const loadRenderer = () =>
  (renderer ??= Promise.all([import('marked'), import('sanitize-html')]).then(([{ Marked: MarkedParser }, { default: sanitize }]) => {
    const marked: Marked = new MarkedParser({ gfm: true, breaks: false, async: false });
    const optionsFor = new Map<string, sanitizeHtml.IOptions>();
    return (markdown, bases, rel) => {
      const key = `${rel}\n${bases.join(' ')}`;
      let options = optionsFor.get(key);
      if (!options) optionsFor.set(key, (options = sanitizeOptions(sanitize, bases, rel)));
      return sanitize(marked.parse(markdown) as string, options);
    };
  }));

/**
 * Rendered bodies by their Markdown: parsing and sanitising were about a tenth of a signed-in
 * blog page's CPU (issue 16's profile), and the same few popular bodies are read again and
 * again. The output depends on the input and the options alone, so an edit is simply a new key.
 */
const rendered = new LRUCache<string, string>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (html, markdown) => (html.length + markdown.length) * 2 });

export async function renderMarkdown(markdown: string, { imageBases = ['/uploads/'], nofollow = false, remember = true }: MarkdownOptions = {}): Promise<string> {
  const rel = nofollow ? HELD_REL : TRUSTED_REL;
  const key = `${rel}\n${imageBases.join(' ')}\n${markdown}`;
  let html = rendered.get(key);
  if (html === undefined) {
    html = (await loadRenderer())(markdown, imageBases, rel);
    if (remember) rendered.set(key, html);
  }
  return html;
}
