/** Words a reader gets through in a minute of screen reading (the figure Medium uses). */
const WORDS_PER_MINUTE = 230;

/** "4 min read" for a Markdown body: at least one minute, rounded to the nearest. */
export function readingTime(markdown: string): string {
  return `${Math.max(1, Math.round(countWords(markdown) / WORDS_PER_MINUTE))} min read`;
}

/**
 * The runs between whitespace (JavaScript's `\s`) that hold a word character (`\w`): what
 * `text.split(/\s+/).filter((w) => /\w/.test(w)).length` counts, in one pass without making the
 * pieces. Every card on a list counts its blog's body, on every render of the list: the split
 * was a tenth of a signed-in home page's CPU on the bench's long bodies.
 */
export function countWords(text: string): number {
  let words = 0;
  let counted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) counted = false;
    else if (!counted && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) {
      words++;
      counted = true;
    }
  }
  return words;
}

/** The characters `\s` matches: ASCII whitespace, no-break and other Unicode spaces, line and paragraph separators, the BOM. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
