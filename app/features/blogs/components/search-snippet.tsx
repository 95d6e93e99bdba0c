import { snippetParts } from '../blogs.presenter';

/**
 * A search excerpt with its matched words highlighted. The excerpt is the presenter's safe HTML,
 * turned back into text runs: React escapes every run, so no writer's text becomes markup.
 */
export function SearchSnippet({ html }: { html: string }) {
  return (
    <p className="line-clamp-4 grow-0 text-sm [&_mark]:rounded-sm [&_mark]:bg-accent [&_mark]:px-0.5 [&_mark]:text-accent-content" data-testid="search-snippet">
      {snippetParts(html).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}
    </p>
  );
}
