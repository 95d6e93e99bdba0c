/**
 * Hostile XML a reader must refuse quickly and in little memory: an external entity that would
 * read a local file (XXE), the "billion laughs" entity expansion, and elements nested 10,000 deep.
 * Each is otherwise a WordPress export, so only the hostile part can be the reason it is refused.
 */
import { wxr } from './wordpress.ts';

const PROLOG = '<?xml version="1.0" encoding="UTF-8" ?>';
const body = () => wxr([{ id: 1, title: 'Title &xxe;', slug: 'x', date: '2020-01-01 00:00:00', content: 'x' }]).replace(PROLOG, '');

/** An external entity pointing at a local file, used in a post's title. */
export function xxeXml(): string {
  return `${PROLOG}\n<!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>${body()}`;
}

/** Ten levels of ten-fold expansion: 10^10 "lol"s (about 30 GB) if a parser expanded it. */
export function billionLaughsXml(): string {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let n = 1; n <= 10; n++) levels.push(`<!ENTITY lol${n} "${`&lol${n - 1};`.repeat(10)}">`);
  return `${PROLOG}\n<!DOCTYPE rss [ ${levels.join('\n')} ]>${body().replace('&xxe;', '&lol10;')}`;
}

/** A post whose content is `depth` nested elements: no export nests like this. */
export function deepNestingXml(depth = 10_000): string {
  const xml = wxr([{ id: 1, title: 'Deep', slug: 'deep', date: '2020-01-01 00:00:00', content: 'x' }]);
  return xml.replace('<wp:post_id>1</wp:post_id>', `<wp:post_id>1</wp:post_id>${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}`);
}
