import { Transform } from 'node:stream';

/**
 * React Router's `<Scripts>` preloads every chunk of a page with `<link rel="modulepreload">`,
 * which browsers fetch at High priority: 9–24 scripts competing with the stylesheet, Literata
 * and the first picture on a slow phone's connection, though none of them is needed to paint a
 * server-rendered page (the scripts are modules, run after parsing; the page works without them,
 * docs/decisions/003). `<Scripts>` passes no attributes to these links, so the page's head is
 * given `fetchpriority="low"` on each here, as it is sent: the browser then fetches them after
 * what the first paint needs, and hydration follows (docs/decisions/042). React puts the links
 * in the head, so only the head is looked at.
 */
const PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW = Buffer.from(' fetchpriority="low"');
const HEAD_END = Buffer.from('</head>');

/** The same bytes, with `fetchpriority="low"` on every modulepreload link before `</head>`. */
export function lowerScriptPriority(html: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const headEnd = html.indexOf(HEAD_END);
  const end = headEnd === -1 ? html.length : headEnd;
  const parts: Buffer[] = [];
  let copied = 0;
  for (let at = html.indexOf(PRELOAD); at !== -1 && at < end; at = html.indexOf(PRELOAD, copied)) {
    parts.push(html.subarray(copied, at + PRELOAD.length), LOW);
    copied = at + PRELOAD.length;
  }
  if (!parts.length) return html;
  parts.push(html.subarray(copied));
  return Buffer.concat(parts);
}

/**
 * The streamed form of {@link lowerScriptPriority}: React writes the page in small chunks, so a
 * link may be cut between two of them; the tail of a chunk that could begin one waits for the
 * next. Past `</head>` everything passes through untouched.
 */
export function lowerScriptPriorityStream(): Transform {
  let held: Buffer<ArrayBuffer> = Buffer.alloc(0);
  let inHead = true;
  return new Transform({
    transform(chunk: Buffer<ArrayBuffer>, _encoding, callback) {
      if (!inHead) return callback(null, chunk);
      const bytes = held.length ? Buffer.concat([held, chunk]) : chunk;
      const headEnd = bytes.indexOf(HEAD_END);
      if (headEnd !== -1) {
        inHead = false;
        held = Buffer.alloc(0);
        return callback(null, lowerScriptPriority(bytes));
      }
      // Keep back the longest tail that is the start of a link or of `</head>`.
      const keep = Math.max(prefixAtEnd(bytes, PRELOAD), prefixAtEnd(bytes, HEAD_END));
      held = Buffer.from(bytes.subarray(bytes.length - keep));
      callback(null, lowerScriptPriority(bytes.subarray(0, bytes.length - keep)));
    },
    flush(callback) {
      callback(null, held.length ? held : undefined);
    },
  });
}

/** How many bytes at the end of `bytes` are the first bytes of `needle` (less than all of it). */
function prefixAtEnd(bytes: Buffer, needle: Buffer): number {
  for (let n = Math.min(needle.length - 1, bytes.length); n > 0; n--) {
    if (bytes.subarray(bytes.length - n).equals(needle.subarray(0, n))) return n;
  }
  return 0;
}
