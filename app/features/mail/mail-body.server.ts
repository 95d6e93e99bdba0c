import sanitizeHtml from 'sanitize-html';

/**
 * A post's stored, sanitised HTML made fit for mail clients (docs/decisions/066). Mail clients
 * drop <style> blocks or class names at will, so every element that needs a look carries it
 * inline; pictures get absolute addresses on our origin and a width no wider than the mail's
 * column; code wraps instead of scrolling (a mail cannot scroll a block sideways) and keeps a
 * monospace face; tables get borders and padding. Highlighted code loses its colours (classes
 * mean nothing without our stylesheet, and inline colours would fight a client's dark mode), and a
 * click-to-load embed becomes the plain link it stands for: a mail runs no script.
 */

/** The mail's content column, in CSS pixels: a wider picture is shown at this width. */
export const MAIL_COLUMN_PX = 544;

/** Colours chosen to read on the light card and, where a client darkens the mail itself, on dark. */
export const MAIL_COLOURS = { ink: '#2b1d2e', muted: '#6b5a6e', accent: '#c2410c', rule: '#e8d9cb', codeBg: '#f6efe8', quoteBar: '#feb47b' } as const;
const C = MAIL_COLOURS;

const SERIF = "Georgia,'Times New Roman',serif";
const SANS = 'Arial,Helvetica,sans-serif';
const MONO = "Menlo,Consolas,'DejaVu Sans Mono','Courier New',monospace";

/** The inline style of each element a body may hold (the body's own sanitiser decides which). */
const STYLES: Record<string, string> = {
  p: `margin:0 0 16px;font:17px/1.65 ${SERIF};color:${C.ink};`,
  h1: `margin:28px 0 12px;font:bold 26px/1.3 ${SERIF};color:${C.ink};`,
  h2: `margin:26px 0 10px;font:bold 22px/1.3 ${SERIF};color:${C.ink};`,
  h3: `margin:22px 0 8px;font:bold 19px/1.3 ${SERIF};color:${C.ink};`,
  h4: `margin:20px 0 8px;font:bold 17px/1.3 ${SERIF};color:${C.ink};`,
  h5: `margin:18px 0 6px;font:bold 16px/1.3 ${SERIF};color:${C.ink};`,
  h6: `margin:18px 0 6px;font:bold 15px/1.3 ${SERIF};color:${C.muted};`,
  ul: `margin:0 0 16px;padding-left:24px;font:17px/1.65 ${SERIF};color:${C.ink};`,
  ol: `margin:0 0 16px;padding-left:24px;font:17px/1.65 ${SERIF};color:${C.ink};`,
  li: 'margin:0 0 6px;',
  blockquote: `margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid ${C.quoteBar};color:${C.muted};font-style:italic;`,
  a: `color:${C.accent};text-decoration:underline;`,
  pre: `margin:0 0 16px;padding:12px 14px;background:${C.codeBg};border:1px solid ${C.rule};border-radius:8px;white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere;font:14px/1.5 ${MONO};color:${C.ink};`,
  code: `font-family:${MONO};font-size:0.9em;background:${C.codeBg};color:${C.ink};padding:1px 4px;border-radius:4px;word-break:break-word;`,
  hr: `border:0;border-top:1px solid ${C.rule};margin:24px 0;`,
  table: `border-collapse:collapse;width:100%;margin:0 0 16px;font:15px/1.45 ${SANS};color:${C.ink};`,
  th: `border:1px solid ${C.rule};padding:6px 8px;text-align:left;font-weight:bold;background:${C.codeBg};`,
  td: `border:1px solid ${C.rule};padding:6px 8px;vertical-align:top;`,
  figure: 'margin:0 0 16px;',
  figcaption: `margin:6px 0 0;font:14px/1.4 ${SANS};color:${C.muted};`,
  del: 'text-decoration:line-through;',
  s: 'text-decoration:line-through;',
};

/** Code inside a block takes the block's look: no second background or padding per line. */
const CODE_IN_PRE = `font-family:${MONO};font-size:inherit;color:inherit;`;

const withStyle = (tag: string, attribs: sanitizeHtml.Attributes, extra: sanitizeHtml.Attributes = {}): sanitizeHtml.Tag => ({
  tagName: tag,
  attribs: { ...extra, ...(STYLES[tag] ? { style: STYLES[tag] } : {}) },
});

/** The body's HTML as mail clients should get it; `absolute` turns a path on our site into a full address. */
export function mailBodyHtml(html: string, absolute: (pathOrUrl: string) => string): string {
  // An embed's placeholder keeps its one link and nothing of its card: its note speaks of a
  // button that a mail cannot have. The stored HTML is our renderer's, so its shape is known.
  const withoutButtons = html.replace(/<p class="embed-note">[\s\S]*?<\/p>/g, '').replace(/<button\b[\s\S]*?<\/button>/g, '');
  const mailed = sanitizeHtml(withoutButtons, {
    allowedTags: [...Object.keys(STYLES), 'br', 'em', 'strong', 'img', 'thead', 'tbody', 'tr', 'span', 'input', 'div'],
    allowedAttributes: {
      '*': ['style'],
      a: ['href', 'style'],
      img: ['src', 'alt', 'width', 'height', 'style'],
      th: ['align', 'style'],
      td: ['align', 'style'],
      ol: ['start', 'style'],
      input: ['type', 'checked', 'disabled'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    // Our own inline styles only: the stored body has none, and nothing a writer wrote survives as style.
    parseStyleAttributes: false,
    allowedClasses: {},
    transformTags: {
      ...Object.fromEntries(Object.keys(STYLES).map((tag) => [tag, (_t: string, a: sanitizeHtml.Attributes) => withStyle(tag, a)])),
      a: (_t, a) => withStyle('a', a, a.href ? { href: a.href.startsWith('/') ? absolute(a.href) : a.href } : {}),
      ol: (_t, a) => withStyle('ol', a, a.start ? { start: a.start } : {}),
      th: (_t, a) => withStyle('th', a, a.align ? { align: a.align } : {}),
      td: (_t, a) => withStyle('td', a, a.align ? { align: a.align } : {}),
      img: (_t, a) => {
        const width = Number(a.width) || MAIL_COLUMN_PX;
        const height = Number(a.height) || 0;
        const shown = Math.min(width, MAIL_COLUMN_PX);
        const size: sanitizeHtml.Attributes = { width: String(shown) };
        if (height) size.height = String(Math.round((height * shown) / width));
        return {
          tagName: 'img',
          attribs: { src: absolute(a.src ?? ''), alt: a.alt ?? '', ...size, style: 'display:block;max-width:100%;height:auto;border:0;border-radius:8px;' },
        };
      },
      // The placeholder's figure and card become plain boxes around its title's link.
      figure: (_t, a) => (/\bembed\b/.test(a.class ?? '') ? { tagName: 'div', attribs: {} } : withStyle('figure', a)),
      div: () => ({ tagName: 'div', attribs: {} }),
    },
  });
  // Markdown writes a block as <pre><code>: that code takes the block's look instead of inline code's.
  return mailed.replace(/(<pre style="[^"]*">)<code style="[^"]*">/g, `$1<code style="${CODE_IN_PRE}">`);
}
