import { Link } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';
import { tagPath } from '../tag-path';

/** A post's tags as links to their pages (docs/decisions/069); nothing when it has none. */
export function TagList({ tags, className = '', label = MESSAGES.postTags }: { tags: readonly string[]; className?: string; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={`flex flex-wrap gap-1.5 ${className}`} aria-label={label} data-testid="tag-list">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={tagPath(tag)} className="badge badge-ghost badge-sm hover:badge-primary relative z-10">#{tag}</Link>
        </li>
      ))}
    </ul>
  );
}
