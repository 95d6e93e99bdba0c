/** Words a reader gets through in a minute of screen reading (the figure Medium uses). */
const WORDS_PER_MINUTE = 230;

/** "4 min read" for a Markdown body: at least one minute, rounded to the nearest. */
export function readingTime(markdown: string): string {
  const words = markdown.split(/\s+/).filter((word) => /\w/.test(word)).length;
  return `${Math.max(1, Math.round(words / WORDS_PER_MINUTE))} min read`;
}
