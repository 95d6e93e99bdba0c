import { type GhostArchive, ghostArchive } from './import-archives';

export interface SiteAuthor {
  id: string;
  name: string;
  email: string | null;
}

/**
 * A Ghost export of a site with several authors (docs/decisions/083): the writer's archive of
 * `ghostArchive`, its posts dealt out to `authors` in turn (post i to author i mod n).
 */
export async function siteGhostArchive(count: number, authors: SiteAuthor[], options: { idPrefix?: string } = {}): Promise<GhostArchive & { titlesBy: Record<string, string[]> }> {
  const archive = await ghostArchive(count, options);
  const json = JSON.parse(archive.members[0]!.body as string) as { db: [{ data: { posts: { id: string; title: string; type?: string }[]; users: unknown[]; posts_authors: { post_id: string; author_id: string }[] } }] };
  const data = json.db[0].data;
  data.users = authors.map((a) => ({ id: a.id, name: a.name, email: a.email, bio: null, profile_image: null, slug: a.name.toLowerCase().replace(/\W+/g, '-') }));
  const titlesBy: Record<string, string[]> = Object.fromEntries(authors.map((a) => [a.id, []]));
  const posts = data.posts.filter((p) => p.type !== 'page');
  data.posts_authors = posts.map((post, i) => {
    const author = authors[i % authors.length]!;
    titlesBy[author.id]!.push(post.title);
    return { id: `pa-${post.id}`, post_id: post.id, author_id: author.id, sort_order: 0 };
  });
  return { ...archive, members: [{ ...archive.members[0]!, body: JSON.stringify(json) }, ...archive.members.slice(1)], titlesBy };
}
