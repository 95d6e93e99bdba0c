import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { HiddenBadge } from '~/components/hidden-badge';
import { LocalTime } from '~/components/local-format';
import { MESSAGES } from '~/lib/texts/messages';
import { TagList } from '~/features/tags/components/tag-list';
import { blogPath } from '../blog-path';
import { BlogPhoto } from './blog-photo';

export interface StoryCardBlog {
  _id: string;
  /** The readable part of its address (docs/decisions/069); absent: /blogs/{id}. */
  slug?: string;
  /** Its tags, shown as links under the excerpt. */
  tags?: readonly string[];
  title: string;
  photo: string | null;
  /** The photo's focus (decision 040); absent or null: the default position. */
  photo_position?: string | null;
  category: string;
  short_description: string;
  createdAt: string;
  name?: string;
  availability?: string;
  /** "4 min read" (reading-time.ts), worked out on the server from the long description. */
  readingTime?: string;
}

export interface StoryCardProps {
  blog: StoryCardBlog;
  /** h2 where the cards are the page's main list, h3 under a section heading. */
  heading?: 'h2' | 'h3';
  /** The like and wishlist toggles; they sit above the card's link so they stay their own targets. */
  actions?: ReactNode;
  /** Shown under the excerpt: a search result's highlighted words (All blogs passes it, so other pages load no search code). */
  extra?: ReactNode;
  testId?: string;
}

/**
 * The one blog card of the site (docs/decisions/027): the whole card opens the blog (its title link is
 * stretched over it), with the writer, the date and an excerpt; the toggles sit on top.
 */
export function StoryCard({ blog, heading: Heading = 'h2', actions, extra, testId }: StoryCardProps) {
  return (
    <article
      className="group card relative h-full overflow-hidden bg-base-200 shadow-sm ring-1 ring-base-300 transition hover:shadow-lg motion-safe:hover:-translate-y-0.5 focus-within:ring-2 focus-within:ring-primary"
      data-testid={testId}
      aria-labelledby={`card-${blog._id}`}
    >
      <figure className="aspect-[16/10] bg-base-300">
        {blog.photo ? (
          <BlogPhoto src={blog.photo} position={blog.photo_position} sizes="(min-width: 1024px) 370px, (min-width: 768px) 50vw, 100vw" className="h-full w-full object-cover" />
        ) : null}
      </figure>
      <div className="card-body gap-2 p-5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="badge badge-secondary badge-outline badge-sm">{blog.category}</span>
          {blog.availability === 'Hidden' ? <HiddenBadge /> : null}
        </div>
        <Heading id={`card-${blog._id}`} className="font-serif text-xl font-bold leading-snug">
          <Link to={blogPath(blog)} className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none group-hover:underline">
            {blog.title}
          </Link>
        </Heading>
        {/* grow-0: daisyUI's card body lets every <p> grow, and a clamped excerpt taller than its three lines shows a cut fourth one. */}
        <p className="line-clamp-3 grow-0 text-sm opacity-85">{blog.short_description}</p>
        {extra}
        <TagList tags={blog.tags ?? []} />
        <p className="text-sm opacity-80" data-testid="card-byline">
          {blog.name ? <span className="font-semibold">{blog.name} · </span> : null}
          <span>{MESSAGES.postedOn} <LocalTime iso={blog.createdAt} /></span>
          {blog.readingTime ? <span data-testid="card-reading-time"> · {blog.readingTime}</span> : null}
        </p>
        {actions ? <div className="relative z-10 mt-auto flex flex-wrap items-center justify-between gap-2 pt-3">{actions}</div> : null}
      </div>
    </article>
  );
}
