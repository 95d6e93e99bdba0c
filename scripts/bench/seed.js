// `npm run bench:seed -- --blogs N`: fills DATA_DIR (or DATABASE_URL) with a realistic data set:
// users (N/10), blogs across every category and type (5% Hidden), ~5 comments and ~10 likes per
// blog, wishlist rows and subscribers. Bulk inserts in transactions; a progress line on stderr.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const CATEGORIES = ['Personal', 'Travelling & Photography', 'Fashion & Beauty', 'Food & Health', 'Technology', 'Education', 'DIY & Craft Blogs'];
const TYPES = ['written content', 'Video', 'Photo', 'Podcast', 'Mini blog'];
const WORDS = 'sunset evening amber glow horizon journey coffee mountain river city lantern story notebook travel recipe garden craft code lesson market harbour twilight breeze memory window'.split(' ');
export const BENCH_PASSWORD = 'Sunset123';
export const benchUserEmail = (i) => `writer${i}@bench.afterglow.test`;
/** Writers 0…WRITERS-1 can sign in: the write scenarios spread their likes, comments and saves. */
export const WRITERS = 30;
/** Bumped when the data set's shape changes, so `npm run bench` re-seeds an old one. */
export const SEED_FORMAT = 3;
const blogIdOf = (i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const isHidden = (i) => i % 20 === 7;
/** The wishlist rows seeded for user `u`: blog indexes (u·7 + k·13) mod N, k = 0…2. */
const seededWishlist = (u, blogCount) => [0, 1, 2].map((k) => (u * 7 + k * 13) % blogCount);

/**
 * Every (writer, blog) pair a write scenario may use once: public blogs the writer does not own
 * and has not saved yet. Consecutive pairs differ in both blog and writer: walking one blog
 * with all 30 writers in a row made every concurrent like wait for the same blog row (on
 * PostgreSQL, one commit at a time), which measured a viral post rather than a site. Yields
 * { writer, blogId } without building the whole list; each pair comes exactly once.
 */
export function* writePairs({ blogs: blogCount, users: userCount }) {
  const saved = Array.from({ length: WRITERS }, (_, w) => new Set(seededWishlist(w, blogCount)));
  for (let round = 0; round < WRITERS; round++) {
    for (let i = 0; i < blogCount; i++) {
      if (isHidden(i)) continue;
      const w = (i + round) % WRITERS;
      if (i % userCount === w || saved[w].has(i)) continue;
      yield { writer: w, blogId: blogIdOf(i) };
    }
  }
}

/** A small deterministic generator, so two seeds of the same size are the same data set. */
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function text(rand, min, max) {
  const target = min + Math.floor(rand() * (max - min));
  let out = '';
  while (out.length < target) out += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return out.slice(0, target).trim() || 'sunset';
}

function progress(label, done, total) {
  if (!process.stderr.isTTY && done !== total && done % Math.max(1, Math.floor(total / 10)) !== 0) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r${label.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
}

export async function seed({ blogs: blogCount, env = process.env, log = true }) {
  const build = path.join(root, 'build/server/index.js');
  if (!existsSync(build)) throw new Error('no build found: run `npm run build` first');
  const { openDeps } = await import(build);
  const deps = await openDeps({ ...env, LOG_LEVEL: 'warn' });
  const { db } = deps.database;
  const say = (label, done, total) => log && progress(label, done, total);
  const rand = rng(42);
  const now = Date.now();
  const iso = (msAgo) => new Date(now - msAgo).toISOString();

  const existing = await db.selectFrom('blogs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) throw new Error('the database already has blogs: seed a fresh DATA_DIR or database');

  // Users go through better-auth (the writers with a password for signed-in benchmarks; the rest
  // without, since hashing 10,000 passwords would be most of the seeding time).
  const userCount = Math.max(WRITERS, Math.ceil(blogCount / 10));
  for (let i = 0; i < WRITERS; i++) {
    await deps.auth.api.signUpEmail({ body: { email: benchUserEmail(i), password: BENCH_PASSWORD, name: `Bench Writer ${i}` } });
  }
  const authContext = await deps.auth.$context;
  for (let i = WRITERS; i < userCount; i++) {
    await authContext.internalAdapter.createUser({ email: benchUserEmail(i), name: `Bench Writer ${i}`, emailVerified: false });
    if (i % 500 === 0 || i === userCount - 1) say('users', i + 1, userCount);
  }
  const users = await db.selectFrom('user').select(['id', 'email', 'name']).where('email', 'like', '%@bench.afterglow.test').execute();
  users.sort((a, b) => a.email.localeCompare(b.email, 'en', { numeric: true }));

  const BATCH = 500;
  const blogIds = [];
  for (let start = 0; start < blogCount; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(blogCount, start + BATCH); i++) {
      const owner = users[i % users.length];
      // UUID-shaped, like every id the app makes (the API refuses anything else).
      const id = blogIdOf(i);
      blogIds.push(id);
      const createdAt = iso((blogCount - i) * 60_000);
      rows.push({
        id,
        owner_id: owner.id,
        title: text(rand, 20, 80),
        category: CATEGORIES[i % CATEGORIES.length],
        type: TYPES[i % TYPES.length],
        short_description: text(rand, 100, 300),
        long_description: `## ${text(rand, 10, 40)}\n\n${text(rand, 800, 4000)}\n\n- ${text(rand, 10, 40)}\n- ${text(rand, 10, 40)}`,
        details: null,
        availability: isHidden(i) ? 'Hidden' : 'Public',
        photo: `/images/gallery-${(i % 8) + 1}.svg`,
        likes: 0,
        views: Math.floor(rand() * 500),
        comments_count: 0,
        created_at: createdAt,
        updated_at: createdAt,
      });
    }
    await db.insertInto('blogs').values(rows).execute();
    say('blogs', Math.min(blogCount, start + BATCH), blogCount);
  }

  // ~10 likes and ~5 comments per blog from distinct users; counts kept in step.
  for (let start = 0; start < blogIds.length; start += BATCH) {
    const likes = [];
    const comments = [];
    const counts = [];
    for (let i = start; i < Math.min(blogIds.length, start + BATCH); i++) {
      const likeCount = Math.floor(rand() * 21);
      const offset = Math.floor(rand() * users.length);
      for (let k = 0; k < Math.min(likeCount, users.length); k++) {
        const u = users[(offset + k) % users.length];
        likes.push({ blog_id: blogIds[i], user_id: u.id, user_email: u.email, created_at: iso(k * 1000) });
      }
      const commentCount = Math.floor(rand() * 11);
      for (let k = 0; k < commentCount; k++) {
        const u = users[(offset + k + 1) % users.length];
        comments.push({
          id: `${blogIds[i]}-c${k}`,
          root_id: `${blogIds[i]}-c${k}`,
          blog_id: blogIds[i],
          user_id: u.id,
          comment_text: text(rand, 20, 300),
          commented_at: iso(k * 60_000),
        });
      }
      counts.push([blogIds[i], Math.min(likeCount, users.length), commentCount]);
    }
    await db.transaction().execute(async (trx) => {
      for (let j = 0; j < likes.length; j += 200) await trx.insertInto('likes').values(likes.slice(j, j + 200)).execute();
      for (let j = 0; j < comments.length; j += 200) await trx.insertInto('comments').values(comments.slice(j, j + 200)).execute();
      for (const [id, l, c] of counts) await trx.updateTable('blogs').set({ likes: l, comments_count: c }).where('id', '=', id).execute();
    });
    say('social', Math.min(blogIds.length, start + BATCH), blogIds.length);
  }

  const wishlist = [];
  for (let i = 0; i < Math.min(users.length, 2000); i++) {
    for (const [k, b] of seededWishlist(i, blogIds.length).entries()) {
      wishlist.push({ id: `w-${i}-${k}`, user_id: users[i].id, email: users[i].email, blog_id: blogIds[b], title: 'Saved', photo: null, category: CATEGORIES[b % CATEGORIES.length], description: 'Saved for later', like_count: null, created_at: iso(k) });
    }
  }
  for (let j = 0; j < wishlist.length; j += 300) await db.insertInto('wishlist').values(wishlist.slice(j, j + 300)).onConflict((oc) => oc.doNothing()).execute();
  const subscribers = Array.from({ length: Math.min(5000, userCount) }, (_, i) => ({ id: `s-${i}`, email: `reader${i}@bench.afterglow.test`, created_at: iso(i) }));
  for (let j = 0; j < subscribers.length; j += 500) await db.insertInto('subscribers').values(subscribers.slice(j, j + 500)).execute();

  await deps.database.close();
  const publicBlogIds = blogIds.filter((_, i) => !isHidden(i));
  return { users: users.length, blogs: blogIds.length, publicBlogIds };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { blogs: { type: 'string', default: '1000' } } });
  const blogs = Number(values.blogs);
  if (!Number.isInteger(blogs) || blogs < 1) {
    console.error('afterglow: --blogs must be a whole number above 0');
    process.exit(1);
  }
  const started = performance.now();
  const result = await seed({ blogs });
  console.log(`seeded ${result.blogs} blogs and ${result.users} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
