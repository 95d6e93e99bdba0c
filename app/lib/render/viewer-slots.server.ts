import { randomBytes } from 'node:crypto';

/**
 * Signed-in pages as templates (docs/decisions/043). A signed-in page differs from the next
 * viewer's copy in a few strings: the viewer's name, email and photo, their wishlist's address,
 * the request's id and CSP nonce (./viewer-strings.server.ts declares them). In a document
 * request the context hands loaders a placeholder for each of them instead of the value (`slot`), so the rendered page is the same for every
 * viewer whose page shows the same things (the render memo in entry.server keeps it), and the
 * values are written in as the page leaves (`fillTemplate`), escaped for where each placeholder
 * stands: as text or an attribute (React's escaping) or inside React Router's data script (a JSON
 * string inside a JSON string, then React Router's script escaping).
 *
 * A placeholder stands for a whole value only: code that derives something from a slotted value
 * (its first letter, its URL-encoded form, its length) would derive it from the placeholder. So
 * ./viewer-strings.server.ts derives what the page shows (display name, wishlist path) and slots each result;
 * tests/security/viewer-slots.security.test.ts compares filled pages with plain renders.
 */

/** Unguessable per process, of characters no escaping changes, so a placeholder passes through as it is. */
const PROCESS_TAG = `agslot${randomBytes(9).toString('hex')}`;
const placeholder = (index: number) => `${PROCESS_TAG}i${index}x`;
const PLACEHOLDER = new RegExp(`${PROCESS_TAG}i(\\d+)x`, 'g');

/** What entry.server sees of a request's slots: it fills them, it makes none. */
export interface FilledSlots {
  readonly used: boolean;
  valuesWith(nonce: string): string[];
}

/** Made only by ./viewer-strings.server.ts, which declares the strings that are slotted. */
export class ViewerSlots implements FilledSlots {
  private readonly values: string[] = [];

  /** `active`: a signed-in document request, whose render is filled in by entry.server. */
  constructor(readonly active: boolean) {}

  /**
   * The value itself, or in an active request the placeholder that stands for it. One placeholder
   * per distinct value, numbered in order of first use. Empty values are never slotted: a page
   * may test them for truth.
   */
  slot(value: string): string {
    if (!this.active || value === '') return value;
    let index = this.values.indexOf(value);
    if (index < 0) index = this.values.push(value) - 1;
    return placeholder(index);
  }

  /** Whether the render holds placeholders to fill. */
  get used(): boolean {
    return this.values.length > 0;
  }

  /** The values, by placeholder number, with the nonce of this request last. */
  valuesWith(nonce: string): string[] {
    return [...this.values, nonce];
  }
}

type Context = 'html' | 'script';

/** A page cut at its placeholders: `parts[i]`, then slot `slots[i]` escaped for `contexts[i]`, …, then the last part. */
export interface PageTemplate {
  parts: Buffer[];
  slots: number[];
  contexts: Context[];
  /** The bytes of the parts, for the memo's size count. */
  size: number;
}

/**
 * Cuts a rendered page at its placeholders and at its CSP nonce (which becomes the slot after
 * the values, `valueCount`). A placeholder inside a `<script>` element is in React Router's data
 * script; anywhere else it is in markup. The nonce is base64, which no context escapes.
 */
export function makeTemplate(html: string, valueCount: number, nonce: string): PageTemplate {
  const parts: Buffer[] = [];
  const slots: number[] = [];
  const contexts: Context[] = [];
  const marked = nonce ? html.replaceAll(nonce, placeholder(valueCount)) : html;
  let last = 0;
  for (const match of marked.matchAll(PLACEHOLDER)) {
    const at = match.index;
    parts.push(Buffer.from(marked.slice(last, at)));
    slots.push(Number(match[1]));
    contexts.push(marked.lastIndexOf('<script', at) > marked.lastIndexOf('</script>', at) ? 'script' : 'html');
    last = at + match[0].length;
  }
  parts.push(Buffer.from(marked.slice(last)));
  return { parts, slots, contexts, size: parts.reduce((sum, part) => sum + part.length, 0) };
}

/** The page for these values (`ViewerSlots.valuesWith`). */
export function fillTemplate(template: PageTemplate, values: string[]): Buffer {
  const escaped = new Map<string, Buffer>();
  const pieces: Buffer[] = [];
  for (let i = 0; i < template.slots.length; i++) {
    pieces.push(template.parts[i]!);
    const key = `${template.contexts[i]}${template.slots[i]}`;
    let bytes = escaped.get(key);
    if (!bytes) {
      const value = values[template.slots[i]!] ?? '';
      bytes = Buffer.from(template.contexts[i] === 'html' ? escapeMarkup(value) : escapeInDataScript(value));
      escaped.set(key, bytes);
    }
    pieces.push(bytes);
  }
  pieces.push(template.parts[template.parts.length - 1]!);
  return Buffer.concat(pieces);
}

const MARKUP_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
/** What React writes for a string in text or in an attribute value. */
const escapeMarkup = (value: string) => value.replace(/[&<>"']/g, (c) => MARKUP_ESCAPES[c]!);

const SCRIPT_ESCAPES: Record<string, string> = { '&': '\\u0026', '>': '\\u003e', '<': '\\u003c', '\u2028': '\\u2028', '\u2029': '\\u2029' };
/**
 * What React Router's data script holds for a string: turbo-stream writes it as a JSON string,
 * the line is written into the script as a JSON string again, then escaped for a script element.
 */
const escapeInDataScript = (value: string) =>
  JSON.stringify(JSON.stringify(value).slice(1, -1))
    .slice(1, -1)
    .replace(/[&><\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!);
