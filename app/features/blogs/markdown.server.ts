import { LRUCache } from 'lru-cache';
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * The long description is GitHub-flavoured Markdown (BRIEF §2). Writers are untrusted, so the
 * HTML is sanitised after rendering: no scripts, styles, event handlers or foreign schemes.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'loading'],
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
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow ugc noopener' }),
    img: sanitizeHtml.simpleTransform('img', { loading: 'lazy' }),
    // A task list's checkboxes are read-only marks; the label says what they show.
    input: (tagName, attribs) => ({
      tagName,
      attribs: { type: attribs.type ?? '', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}), 'aria-label': attribs.checked !== undefined ? 'Done' : 'Not done' },
    }),
  },
};

/**
 * Rendered bodies by their Markdown: parsing and sanitising were about a tenth of a signed-in
 * blog page's CPU (issue 16's profile), and the same few popular bodies are read again and
 * again. The output depends on the input alone, so an edit is simply a new key.
 */
const rendered = new LRUCache<string, string>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (html, markdown) => (html.length + markdown.length) * 2 });

export function renderMarkdown(markdown: string): string {
  let html = rendered.get(markdown);
  if (html === undefined) {
    html = sanitizeHtml(marked.parse(markdown) as string, SANITIZE);
    rendered.set(markdown, html);
  }
  return html;
}
