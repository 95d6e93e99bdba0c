import TurndownService from 'turndown';
// @ts-expect-error the plugin ships no types
import { gfm } from 'turndown-plugin-gfm';

/**
 * A source's HTML as our Markdown (docs/decisions/072): turndown with the GFM tables and
 * strikethrough, ATX headings and fenced code, links and images made absolute against the old
 * site's address. Deterministic: the same HTML gives the same Markdown.
 */
const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
service.use(gfm);
service.remove(['script', 'style', 'iframe', 'noscript']);

export function htmlToMarkdown(html: string, baseUrl: string | null): string {
  const absolute = (value: string) => {
    if (!baseUrl) return value;
    try {
      return new URL(value, baseUrl).href;
    } catch {
      return value;
    }
  };
  const withBase = baseUrl ? html.replace(/(\s(?:src|href)=")([^"]*)"/g, (_all, attr: string, value: string) => `${attr}${absolute(value)}"`) : html;
  return service.turndown(withBase).trim();
}
