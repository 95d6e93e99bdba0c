import { data } from 'react-router';
import { Avatar } from '~/components/avatar';
import { LocalNumber } from '~/components/local-format';
import { listAuthorBlogs } from '~/features/blogs/blog.service.server';
import { StoryCard } from '~/features/blogs/components/story-card';
import { getAuthor } from '~/features/users/users.service.server';
import { isAppError } from '~/lib/errors';
import { pageMeta, siteOf } from '~/lib/seo';
import type { Route } from './+types/author';

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const site = siteOf(matches);
  if (!loaded) return [{ title: site.siteName }];
  return pageMeta(site, { title: `${loaded.author.name} · ${site.siteName}`, description: `Blogs by ${loaded.author.name} on ${site.siteName}.`, path: `/authors/${loaded.author.id}` });
};

export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    const [author, blogs] = await Promise.all([getAuthor(context.service, params.id), listAuthorBlogs(context.service, params.id)]);
    return { author, blogs, isMe: context.user?.id === author.id };
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') throw data(null, { status: 404 });
    throw error;
  }
}

/** A writer's page (issue 17): name, photo and their blogs; the writer also sees Hidden ones with views and likes. */
export default function Author({ loaderData }: Route.ComponentProps) {
  const { author, blogs, isMe } = loaderData;
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-10">
      <header className="flex flex-wrap items-center gap-5">
        <Avatar src={author.photo} alt="" size={96} />
        <div className="min-w-0">
          <h1 className="font-serif text-3xl font-bold tracking-tight sm:text-4xl">{author.name}</h1>
          <p className="mt-1 opacity-85" data-testid="author-count">
            {isMe ? 'Your blogs' : 'Blogs'}: <LocalNumber value={blogs.length} />
          </p>
        </div>
      </header>
      {blogs.length === 0 ? (
        <p className="mt-10 opacity-85">No blogs yet.</p>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="author-blogs">
          {blogs.map((blog) => (
            <li key={blog._id}>
              <StoryCard
                blog={blog}
                actions={
                  isMe ? (
                    <p className="text-sm opacity-85" data-testid="author-stats">
                      <LocalNumber value={blog.views} /> {blog.views === 1 ? 'view' : 'views'} · <LocalNumber value={blog.likes} /> {blog.likes === 1 ? 'like' : 'likes'}
                    </p>
                  ) : null
                }
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
