import { useEffect, useState } from 'react';
import { blogPath } from '../blog-path';
import { Link } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { LocalTime } from '~/components/local-format';
import { FollowButton } from '~/features/follows/components/follow-button';
import { MESSAGES } from '~/lib/texts/messages';
import { BlogPhoto } from './blog-photo';

/** One of the writer's other posts, as the end of a post shows it (no counts: docs/decisions/061). */
export interface PostEndPost {
  _id: string;
  title: string;
  photo: string | null;
  photo_position?: string | null;
  createdAt: string;
  readingTime: string;
}

export interface PostEndProps {
  blog: { _id: string; slug?: string | null; title: string; short_description: string; name: string };
  previous: PostEndPost | null;
  next: PostEndPost | null;
  more: PostEndPost[];
  /** The viewer's follow of the writer: null for the writer themselves. */
  follow: { writerId: string; following: boolean } | null;
  signedIn: boolean;
}

/**
 * Where a post ends (docs/decisions/061): share it, go on to the writer's post before or after
 * it or to their newest, and hear of the next one. What every reader sees alike is rendered by the
 * server; the share buttons appear once the page runs (they need the browser).
 */
export function PostEnd({ blog, previous, next, more, follow, signedIn }: PostEndProps) {
  return (
    <section className="mt-10 flex flex-col gap-8 border-t border-base-300 pt-8" data-testid="post-end">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
        <FollowPrompt blog={blog} follow={follow} signedIn={signedIn} />
        <ShareButtons blog={blog} />
      </div>
      {previous || next ? (
        <nav aria-label={MESSAGES.morePostsBy(blog.name)} className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="post-neighbours">
          {previous ? <Neighbour post={previous} label={MESSAGES.previousPost} rel="prev" /> : <span className="hidden sm:block" />}
          {next ? <Neighbour post={next} label={MESSAGES.nextPost} rel="next" /> : null}
        </nav>
      ) : null}
      {more.length > 0 ? (
        <div>
          <h2 className="font-serif text-2xl font-bold">{MESSAGES.moreFrom(blog.name)}</h2>
          <ul className="mt-4 flex flex-col divide-y divide-base-300" data-testid="more-from-writer">
            {more.map((post) => (
              <li key={post._id} className="relative flex items-center gap-4 py-3">
                <div className="h-16 w-24 shrink-0 overflow-hidden rounded-box bg-base-300">
                  {post.photo ? <BlogPhoto src={post.photo} position={post.photo_position} sizes="96px" className="h-full w-full object-cover" /> : null}
                </div>
                <div className="min-w-0">
                  <h3 className="font-serif text-lg font-semibold leading-snug">
                    <Link to={blogPath(post)} className="after:absolute after:inset-0 after:content-[''] hover:underline">{post.title}</Link>
                  </h3>
                  <p className="text-sm opacity-80">
                    <LocalTime iso={post.createdAt} /> · {post.readingTime}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function Neighbour({ post, label, rel }: { post: PostEndPost; label: string; rel: 'prev' | 'next' }) {
  return (
    <Link
      to={blogPath(post)}
      rel={rel}
      className={`flex flex-col gap-1 rounded-box bg-base-200 p-4 ring-1 ring-base-300 hover:ring-primary ${rel === 'next' ? 'sm:items-end sm:text-right' : ''}`}
    >
      <span className="text-sm opacity-80">{rel === 'prev' ? `← ${label}` : `${label} →`}</span>
      <span className="font-serif font-semibold leading-snug">{post.title}</span>
    </Link>
  );
}

/**
 * The way to the writer's next post, for a reader who would not hear of it yet: signed out, the
 * log-in and the newsletter; signed in, the follow button; following (or the writer): nothing.
 */
function FollowPrompt({ blog, follow, signedIn }: Pick<PostEndProps, 'blog' | 'follow' | 'signedIn'>) {
  if (!follow || follow.following) return <span />;
  const back = blogPath(blog);
  return (
    <div className="flex flex-col gap-3" data-testid="follow-prompt">
      <p className="font-serif text-lg">{signedIn ? MESSAGES.followPromptSignedIn(blog.name) : MESSAGES.followPromptSignedOut(blog.name)}</p>
      <div className="flex flex-wrap items-center gap-3">
        {signedIn ? (
          <FollowButton writerId={follow.writerId} writerName={blog.name} following={false} redirectTo={back} />
        ) : (
          <>
            <Link to={`/login?${new URLSearchParams({ redirectTo: back })}`} className="btn btn-sm btn-secondary">{MESSAGES.logInToFollow}</Link>
            <Link to="/newsletter" className="btn btn-sm btn-ghost">{MESSAGES.getNewsletter}</Link>
          </>
        )}
      </div>
    </div>
  );
}

/** The page's own address as search engines are told it, so a copied link has no stray query. */
function postUrl(): string {
  return document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? window.location.href;
}

/**
 * Copy link, and the system's share sheet where the browser has one. Nothing of a third party
 * loads: the link goes to the clipboard or to the sheet the device itself offers.
 */
export function ShareButtons({ blog }: { blog: PostEndProps['blog'] }) {
  const { toast } = useFeedback();
  const [can, setCan] = useState<{ share: boolean } | null>(null);
  useEffect(() => setCan({ share: typeof navigator.share === 'function' }), []);
  if (!can) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(postUrl());
      toast({ text: MESSAGES.linkCopied, kind: 'success' });
    } catch {
      toast({ text: MESSAGES.linkNotCopied, kind: 'error' });
    }
  }

  async function share() {
    try {
      await navigator.share({ title: blog.title, text: blog.short_description, url: postUrl() });
    } catch (error) {
      // Closing the sheet is the reader's choice, not a failure.
      if (!(error instanceof DOMException && error.name === 'AbortError')) void copy();
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={MESSAGES.shareHeading} data-testid="share">
      <button type="button" className="btn btn-sm btn-outline" onClick={() => void copy()}>{MESSAGES.copyLink}</button>
      {can.share ? <button type="button" className="btn btn-sm btn-outline" onClick={() => void share()}>{MESSAGES.shareSheet}</button> : null}
    </div>
  );
}
