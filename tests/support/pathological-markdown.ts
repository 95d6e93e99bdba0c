/**
 * Markdown bodies that make naive renderers slow (quadratic or worse) or deep, each exactly `n`
 * characters long: emphasis and strikethrough runs, nested brackets and quotes, backtick runs,
 * link-reference floods, deep lists, tables, raw HTML, autolinks, entities (docs/decisions/047).
 * Plain TypeScript without path aliases, so the bench loads it with Node alone.
 */
const fill = (unit: string, n: number) => unit.repeat(Math.max(0, Math.ceil(n / unit.length))).slice(0, Math.max(0, n));

const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;

function grow(n: number, line: (i: number) => string): string {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < n; i++) {
    const next = line(i);
    parts.push(next);
    length += next.length;
  }
  return parts.join('').slice(0, n);
}

function referenceFlood(n: number): string {
  const definitions = grow(n / 2, (i) => `[r${i}]: /u${i}\n`);
  const uses = grow(n / 2, (i) => `[r${i}] `);
  return `${definitions}\n${uses}`.slice(0, n);
}

function table(n: number, columns: number): string {
  const head = `|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n`;
  return (head + fill(`|${'b|'.repeat(columns)}\n`, n - head.length)).slice(0, n);
}

export function pathologicalMarkdown(n: number): Record<string, string> {
  return {
    'emphasis _a': fill('_a', n),
    'emphasis *a': fill('*a', n),
    'emphasis **a': fill('**a', n),
    'emphasis *_': fill('*_', n),
    'emphasis a*': fill('a*', n),
    'emphasis a** b': fill('a** b', n),
    'strikethrough ~a': fill('~a', n),
    'strikethrough ~~a': fill('~~a', n),
    'brackets [': fill('[', n),
    'brackets [a](': fill('[a](', n),
    'brackets ![': fill('![', n),
    'brackets ](': fill('](', n),
    'brackets [(': fill('[(', n),
    'brackets [\\]': fill('[\\]', n),
    'link destination (((': `[a](${fill('(', n - 4)}`,
    'link destination <<<': `[a](${fill('<', n - 4)}`,
    'link titles "': fill('[a](b "', n),
    'quotes >': fill('>', n),
    'quotes > a': fill('> a\n', n),
    'quotes nested': `${fill('>', n - 2)}\na`,
    'backtick runs 1..k': grow(n, (i) => `${'`'.repeat(i + 1)}a`),
    'backticks `': fill('`', n),
    'backticks `a``': fill('`a``', n),
    'link-reference flood': referenceFlood(n),
    'link-reference definitions': fill('[a]: b\n', n),
    'references [a][': fill('[a][', n),
    'lists indented': grow(n, (i) => `${' '.repeat((i * 2) % 400)}- a\n`),
    'lists nested': grow(n, (i) => `${'  '.repeat(i)}- a\n`),
    'list markers - ': fill('- ', n),
    'list markers 1. ': fill('1. ', n),
    'table wide': table(n, Math.floor(n / 5)),
    'table 100 columns': table(n, 100),
    'table pipes': fill('|', n),
    'table a|': fill('a|\n-|\n', n),
    'html <a': fill('<a', n),
    'html <!--': fill('<!--', n),
    'html <?': fill('<?', n),
    'html attributes': `<a ${fill('a=b ', n - 3)}`,
    'autolinks www.': fill('www.a', n),
    'autolinks http://': fill('http://a.', n),
    'autolinks <http': fill('<http://a', n),
    'autolinks a@': fill('a@a.', n),
    'entities &#': fill('&#', n),
    'escapes \\': fill('\\', n),
    'headings #': fill('#', n),
    'setext a = ': fill('a\n=\n', n),
    // Highlighted code, figures and embeds (docs/decisions/063): grammars with nested states.
    'code js strings': fence('js', fill('"a\\`${', n - 10)),
    'code html tags': fence('html', fill('<a b="<style>', n - 12)),
    'code python quotes': fence('python', fill(`"""a'''f"{`, n - 14)),
    'code bash substitutions': fence('bash', fill('$(a "${b', n - 12)),
    'code fences': fill('```ts\na\n```\n', n),
    figures: fill('![a](/u.webp "c")\n\n', n),
    embeds: fill('https://youtu.be/dQw4w9WgXcQ\n\n', n),
  };
}

/**
 * The body as a multipart form field of at most `n` characters: a form sends its line breaks as
 * CRLF (the browser and fetch's FormData alike), which the server counts, so they are CRLF here.
 */
export const asFormField = (body: string, n: number) => body.replace(/\r?\n/g, '\r\n').slice(0, n);
