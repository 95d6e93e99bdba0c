import type { ProfileAbout } from '~/features/users/users.presenter';

/** The host and path of a link, without the scheme: what a reader needs to see where it goes. */
const shownAddress = (href: string) => href.replace(/^https?:\/\//, '').replace(/\/$/, '');

/**
 * A writer's bio and links on their author page. The links are the writer's own claims, so they
 * carry `nofollow ugc` (search engines give them no weight from us) and `me` (the writer's other
 * profiles can verify them back).
 */
export function AuthorAbout({ about }: { about: ProfileAbout }) {
  const links = [about.website, ...about.links].filter((link): link is string => Boolean(link));
  if (!about.bio && links.length === 0) return null;
  return (
    <div className="mt-3 max-w-prose" data-testid="author-about">
      {about.bio ? <p className="whitespace-pre-line" data-testid="author-bio">{about.bio}</p> : null}
      {links.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Links" data-testid="author-links">
          {links.map((href) => (
            <li key={href} className="min-w-0">
              <a href={href} rel="nofollow ugc me" className="link break-all">{shownAddress(href)}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
