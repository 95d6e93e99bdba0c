/**
 * The writing toolbar's edits (docs/decisions/030): each turns the text and its selection into one
 * replacement, so the textarea can apply it as a single undoable insertion. Pure, client-safe.
 */

export type MarkdownAction = 'bold' | 'italic' | 'heading' | 'link' | 'quote' | 'list' | 'code';

export interface Selection {
  value: string;
  start: number;
  end: number;
}

/** Replace `value[from, to)` with `text`, then select `[selectStart, selectEnd)` of the new value. */
export interface Replacement {
  from: number;
  to: number;
  text: string;
  selectStart: number;
  selectEnd: number;
}

/** What a replacement makes of the text (the textarea does the same through the browser). */
export function applyReplacement(value: string, r: Replacement): Selection {
  return { value: value.slice(0, r.from) + r.text + value.slice(r.to), start: r.selectStart, end: r.selectEnd };
}

/** Shown selected when there was no selection, so typing replaces it. */
const PLACEHOLDER: Record<'bold' | 'italic' | 'link' | 'code', string> = {
  bold: 'bold text',
  italic: 'italic text',
  link: 'link text',
  code: 'code',
};

const LINK_URL = 'https://';

/** `**x**` around the selection, or off again when it already has them (inside or just outside). */
function wrap({ value, start, end }: Selection, mark: string, placeholder: string): Replacement {
  const inner = value.slice(start, end);
  if (inner.length >= mark.length * 2 && inner.startsWith(mark) && inner.endsWith(mark)) {
    const text = inner.slice(mark.length, -mark.length);
    return { from: start, to: end, text, selectStart: start, selectEnd: start + text.length };
  }
  if (value.slice(start - mark.length, start) === mark && value.slice(end, end + mark.length) === mark) {
    return { from: start - mark.length, to: end + mark.length, text: inner, selectStart: start - mark.length, selectEnd: end - mark.length };
  }
  const text = inner || placeholder;
  return { from: start, to: end, text: `${mark}${text}${mark}`, selectStart: start + mark.length, selectEnd: start + mark.length + text.length };
}

/** The start of the line `at` is on, and the end of the line `to` is on. */
function wholeLines(value: string, start: number, end: number): [number, number] {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  // A selection ending just after a newline ends on the line before it.
  const last = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const next = value.indexOf('\n', last);
  return [from, next === -1 ? value.length : next];
}

/** `prefix` before every selected line, or off again when every line already has it. */
function prefixLines({ value, start, end }: Selection, prefix: string): Replacement {
  const [from, to] = wholeLines(value, start, end);
  const lines = value.slice(from, to).split('\n');
  const all = lines.every((line) => line.startsWith(prefix));
  const text = lines.map((line) => (all ? line.slice(prefix.length) : `${prefix}${line}`)).join('\n');
  if (start === end && !all) {
    // A caret on a line: it stays where it was in the words, after the new prefix.
    return { from, to, text, selectStart: start + prefix.length, selectEnd: start + prefix.length };
  }
  return { from, to, text, selectStart: from, selectEnd: from + text.length };
}

function link({ value, start, end }: Selection): Replacement {
  const inner = value.slice(start, end);
  if (/^https?:\/\/\S+$/.test(inner)) {
    // A selected address becomes the target; the words are to be typed.
    const text = `[${PLACEHOLDER.link}](${inner})`;
    return { from: start, to: end, text, selectStart: start + 1, selectEnd: start + 1 + PLACEHOLDER.link.length };
  }
  const words = inner || PLACEHOLDER.link;
  const text = `[${words}](${LINK_URL})`;
  const urlAt = start + words.length + 3;
  return inner
    ? { from: start, to: end, text, selectStart: urlAt, selectEnd: urlAt + LINK_URL.length }
    : { from: start, to: end, text, selectStart: start + 1, selectEnd: start + 1 + words.length };
}

/** Inline code for a part of a line; a fenced block for whole lines. */
function code(selection: Selection): Replacement {
  const { value, start, end } = selection;
  const inner = value.slice(start, end);
  if (!inner.includes('\n')) return wrap(selection, '`', PLACEHOLDER.code);
  const body = inner.endsWith('\n') ? inner : `${inner}\n`;
  const before = start === 0 || value[start - 1] === '\n' ? '' : '\n';
  const text = `${before}\`\`\`\n${body}\`\`\`\n`;
  return { from: start, to: end, text, selectStart: start + before.length + 4, selectEnd: start + before.length + 4 + body.length - 1 };
}

export function markdownEdit(action: MarkdownAction, selection: Selection): Replacement {
  switch (action) {
    case 'bold':
      return wrap(selection, '**', PLACEHOLDER.bold);
    case 'italic':
      return wrap(selection, '_', PLACEHOLDER.italic);
    case 'heading':
      return prefixLines(selection, '## ');
    case 'quote':
      return prefixLines(selection, '> ');
    case 'list':
      return prefixLines(selection, '- ');
    case 'link':
      return link(selection);
    case 'code':
      return code(selection);
  }
}

/**
 * An image's Markdown. Our own images carry their shown size in the fragment (`#1600x1067`),
 * which the page's renderer turns into width and height, so the page does not jump as it loads
 * (docs/decisions/030). Brackets in the alt text would end it early, so they go.
 */
export function imageMarkdown(alt: string, url: string, size?: { width: number; height: number }): string {
  const words = alt.replace(/[[\]\n\r]/g, ' ').trim();
  return `![${words}](${url}${size ? `#${size.width}x${size.height}` : ''})`;
}

/** A block (an image) at the caret, on lines of its own, replacing any selection. */
export function insertBlock({ value, start, end }: Selection, block: string): Replacement {
  const before = start === 0 ? '' : value.slice(Math.max(0, start - 2), start) === '\n\n' ? '' : value[start - 1] === '\n' ? '\n' : '\n\n';
  const after = end >= value.length ? '' : value.slice(end, end + 2) === '\n\n' ? '' : value[end] === '\n' ? '\n' : '\n\n';
  const text = `${before}${block}${after}`;
  const caret = start + before.length + block.length;
  return { from: start, to: end, text, selectStart: caret, selectEnd: caret };
}

/** The alt text a file's name suggests (`tiled-wall.jpg` → `tiled wall`); the writer may change it. */
export function altFromFileName(name: string): string {
  return name.replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim();
}

/** Shown in the text while a file uploads; replaced by the image's Markdown, or removed on failure. */
export function uploadingMarker(name: string, n: number): string {
  return `![Uploading ${name.replace(/[[\]\n\r]/g, ' ')} (${n})…]()`;
}

/** `![alt](address …)`: a picture's alt text and address, as the editor writes and a writer types them. */
const PICTURE = /!\[([^\]\n]*)\]\(\s*([^)\s]+)[^)\n]*\)/g;

/** A picture in the text: where its alt text stands, and its address. */
export interface PictureRef {
  alt: string;
  url: string;
  /** The alt text's place in the value, `[altFrom, altTo)`. */
  altFrom: number;
  altTo: number;
}

/** Every picture in the text, in order (the upload markers left out: they are replaced soon). */
export function picturesIn(value: string): PictureRef[] {
  return [...value.matchAll(PICTURE)]
    .filter((m) => m[2] !== '')
    .map((m) => ({ alt: m[1]!, url: m[2]!, altFrom: m.index + 2, altTo: m.index + 2 + m[1]!.length }));
}

/** The pictures that say nothing to a reader who cannot see them: no alt text at all (docs/decisions/063). */
export const picturesWithoutAlt = (value: string): PictureRef[] => picturesIn(value).filter((p) => p.alt.trim() === '');

/**
 * The edit that gives the picture at `url` (the first with that address and an alt of `current`)
 * the alt text `alt`, brackets taken out as imageMarkdown does; null when it is no longer there.
 */
export function setAlt(value: string, url: string, current: string, alt: string): Replacement | null {
  const picture = picturesIn(value).find((p) => p.url === url && p.alt === current) ?? picturesIn(value).find((p) => p.url === url);
  if (!picture) return null;
  const text = alt.replace(/[[\]\n\r]/g, ' ').trim();
  const end = picture.altFrom + text.length;
  return { from: picture.altFrom, to: picture.altTo, text, selectStart: end, selectEnd: end };
}
