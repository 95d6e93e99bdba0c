import type { ReactNode } from 'react';

function FeedIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden="true">
      <path d="M5 17a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM3 10v3a8 8 0 0 1 8 8h3A11 11 0 0 0 3 10zm0-7v3a15 15 0 0 1 15 15h3A18 18 0 0 0 3 3z" />
    </svg>
  );
}

/** A visible link to a feed, with the usual feed mark (the home page's and each writer's). */
export function FeedLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="link link-hover inline-flex items-center gap-1 text-sm font-semibold" data-testid="feed-link">
      <FeedIcon />
      {children}
    </a>
  );
}
