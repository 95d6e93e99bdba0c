import { blogPathOf } from '~/features/blogs/blog-path';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import * as repo from './stats.repo.server';

/** Days of views per day the dashboard shows, today included. */
export const STATS_DAYS = 14;
/** A follow counts for the writer's newest post before it when it came within this many days of it. */
export const FOLLOW_ATTRIBUTION_DAYS = 7;
const DAY_MS = 86_400_000;

export interface PostStats {
  id: string;
  title: string;
  /** The post's address as it reads now (docs/decisions/069). */
  path: string;
  hidden: boolean;
  createdAt: string;
  views: number;
  /** Views on each of the last STATS_DAYS days, oldest first (0 for a day without any). */
  viewsPerDay: { day: string; views: number }[];
  likes: number;
  comments: number;
  /** Followers who started following within FOLLOW_ATTRIBUTION_DAYS of this post, before her next. */
  newFollowers: number;
  /** Post mails delivered to subscribers and followers. */
  mailsSent: number;
}

export interface WriterStats {
  days: string[];
  posts: PostStats[];
  totals: { views: number; likes: number; comments: number; followers: number; mailsSent: number };
}

/**
 * The signed-in writer's own numbers (docs/decisions/066): counted in our database, without
 * cookies or anyone else's scripts; views per day come from the daily rows the view counter's
 * flush keeps. A new follower is credited to the writer's newest post published before the
 * follow, if the follow came within FOLLOW_ATTRIBUTION_DAYS of it; older follows to none.
 */
export async function writerStats(ctx: ServiceContext): Promise<WriterStats> {
  const user = userOrThrow401(ctx);
  const today = Date.UTC(ctx.now().getUTCFullYear(), ctx.now().getUTCMonth(), ctx.now().getUTCDate());
  const days = Array.from({ length: STATS_DAYS }, (_, i) => new Date(today - (STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  const blogs = await repo.writerBlogs(ctx.db, user.id);
  const ids = blogs.map((b) => b.id);
  const [daily, follows, mails] = await Promise.all([repo.viewsPerDay(ctx.db, ids, days[0]!), repo.followTimes(ctx.db, user.id), repo.mailsSentPerBlog(ctx.db, ids)]);

  const perDay = new Map(daily.map((r) => [`${r.blog_id} ${r.day}`, Number(r.views)]));
  const followers = new Map<string, number>();
  const published = blogs.filter((b) => b.availability === 'Public').map((b) => ({ id: b.id, at: Date.parse(b.created_at) }));
  for (const follow of follows) {
    const at = Date.parse(follow.created_at);
    // `published` is newest first: the first post at or before the follow is the newest before it.
    const post = published.find((p) => p.at <= at);
    if (post && at - post.at <= FOLLOW_ATTRIBUTION_DAYS * DAY_MS) followers.set(post.id, (followers.get(post.id) ?? 0) + 1);
  }

  const posts = blogs.map((b) => ({
    id: b.id,
    title: b.title,
    path: blogPathOf(b),
    hidden: b.availability !== 'Public',
    createdAt: b.created_at,
    views: Number(b.views),
    viewsPerDay: days.map((day) => ({ day, views: perDay.get(`${b.id} ${day}`) ?? 0 })),
    likes: Number(b.likes),
    comments: Number(b.comments_count),
    newFollowers: followers.get(b.id) ?? 0,
    mailsSent: mails.get(b.id) ?? 0,
  }));
  const sum = (pick: (p: PostStats) => number) => posts.reduce((n, p) => n + pick(p), 0);
  return {
    days,
    posts,
    totals: { views: sum((p) => p.views), likes: sum((p) => p.likes), comments: sum((p) => p.comments), followers: follows.length, mailsSent: sum((p) => p.mailsSent) },
  };
}
