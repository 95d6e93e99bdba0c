import { Form } from 'react-router';
import { LocalTime } from '~/components/local-format';
import { REMOTE_FOLLOWING_TEXTS as T } from '~/lib/texts/remote-following';
import { REMOTE_REPLY_MAX } from '../remote-following.schema';

export interface RemotePostView {
  id: string;
  title: string | null;
  summary: string | null;
  html: string;
  url: string;
  publishedAt: string;
  author: { handle: string; name: string | null; profileUrl: string | null };
  myReplies: { id: string; text: string; at: string }[];
}

/**
 * A post of an account the reader follows on another server (docs/decisions/081): its author's
 * name and handle, its text as sanitised on arrival, a link to the original, and a reply form.
 */
export function RemotePostCard({ post }: { post: RemotePostView }) {
  const author = post.author.name || post.author.handle;
  const replyId = `reply-${post.id}`;
  return (
    <article className="card border border-base-300 bg-base-100 p-4 shadow-sm" data-testid="remote-post">
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
        {post.author.profileUrl ? (
          <a href={post.author.profileUrl} className="link font-semibold" rel="nofollow ugc noopener">
            {author}
          </a>
        ) : (
          <span className="font-semibold">{author}</span>
        )}
        <span className="break-all opacity-80">{post.author.handle}</span>
        <span className="opacity-80">
          · <LocalTime iso={post.publishedAt} />
        </span>
      </p>
      {post.title ? <h3 className="mt-2 text-lg font-bold">{post.title}</h3> : null}
      {post.summary && post.title ? <p className="mt-1 opacity-90">{post.summary}</p> : null}
      <div className="prose mt-2 max-w-none break-words" dangerouslySetInnerHTML={{ __html: post.html }} />
      <p className="mt-3 text-sm">
        <a href={post.url} className="link link-primary" rel="nofollow ugc noopener">
          {T.readOriginal}
          <span className="sr-only">: {post.title ?? author}</span>
        </a>
      </p>
      {post.myReplies.length ? (
        <ul className="mt-3 flex flex-col gap-2" aria-label={T.yourReply}>
          {post.myReplies.map((r) => (
            <li key={r.id} className="rounded bg-base-200 p-2 text-sm" data-testid="my-remote-reply">
              <span className="font-semibold">{T.yourReply}:</span> <span className="whitespace-pre-line">{r.text}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" className="mt-3 flex flex-col gap-2">
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="postId" value={post.id} />
        <label htmlFor={replyId} className="text-sm font-medium">
          {T.replyLabel}
          <span className="sr-only"> {author}</span>
        </label>
        <textarea id={replyId} name="text" required maxLength={REMOTE_REPLY_MAX} rows={2} className="textarea textarea-bordered w-full" />
        <button type="submit" className="btn btn-outline btn-sm self-start">
          {T.replyButton}
        </button>
      </Form>
    </article>
  );
}
