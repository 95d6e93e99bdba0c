// `npm run cluster:load [-- --duration 30 --connections 100 --port 8090]`: a load run against the
// cluster (scripts/cluster.js) with many seeded users: 80% reads, 20% writes (likes, comments,
// wishlist adds, new blogs), then the invariants checked in the database and the bucket.
// The real run is `-- --duration 300`; the short default is for trying it. Rate limits are OFF for
// this run (RATE_LIMITS=off): they count per client address, and every virtual user here comes
// from 127.0.0.1, so they would stop a legitimate run of 100 users after a few sign-ins.
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import { dropDatabase, startCluster } from './cluster.js';

const root = path.resolve(import.meta.dirname, '..');
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const BLOG = { category: 'Personal', type: 'written content', short_description: 'Written under load.', long_description: 'A **steady** evening.', availability: 'Public' };

async function call(url, method, pathname, { token, cookie, json, form } = {}) {
  const headers = { origin: url };
  if (token) headers.authorization = `Bearer ${token}`;
  if (cookie) headers.cookie = cookie;
  if (json) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${pathname}`, { method, headers, body: json ? JSON.stringify(json) : form });
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return res;
}

/** Signs a user up over HTTP; answers its email, bearer token and cookie. */
export async function signUpUser(url, email, name = 'Load Reader') {
  const res = await call(url, 'POST', '/api/auth/sign-up/email', { json: { email, name, password: 'Sunset123' } });
  return { email, token: res.headers.get('set-auth-token'), cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}

async function inBatches(count, size, fn) {
  const out = [];
  for (let i = 0; i < count; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => fn(i + j)))));
  return out;
}

/** Readers (who like, comment, wishlist and write), authors and their blogs, a few uploaded photos. */
export async function seed(url, { readers = 100, authors = 10, blogsPerAuthor = 20 } = {}) {
  const tag = Date.now().toString(36);
  const writers = await inBatches(authors, 4, (i) => signUpUser(url, `author${i}-${tag}@load.test`, `Author ${i}`));
  const photos = [];
  for (const [i, hue] of [[0, 30], [1, 200], [2, 320]]) {
    const image = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 250, g: hue % 255, b: 60 + i * 40 } } }).jpeg().toBuffer();
    const form = new FormData();
    form.append('image', new Blob([image], { type: 'image/jpeg' }), 'photo.jpg');
    photos.push((await (await call(url, 'POST', '/api/images', { token: writers[0].token, form })).json()).data.url);
  }
  const blogIds = (
    await inBatches(authors * blogsPerAuthor, 8, async (i) => {
      const res = await call(url, 'POST', '/api/blogs', { token: writers[i % authors].token, json: { ...BLOG, title: `Seeded blog ${i}`, photo: photos[i % photos.length] } });
      return (await res.json()).insertedId;
    })
  ).filter(Boolean);
  const users = await inBatches(readers, 4, (i) => signUpUser(url, `reader${i}-${tag}@load.test`, `Reader ${i}`));
  return { users, writers, blogIds, photos };
}

/**
 * The 80/20 mix. Each route runs as its own autocannon with its share of the connections, so
 * the table reports req/s and latency per route. `expect` lists the statuses that are right
 * answers (a second wishlist add of the same blog is a 409 by the product's rule).
 */
export function loadRoutes(url, { users, blogIds, photos }) {
  const auth = (u) => ({ authorization: `Bearer ${u.token}`, origin: url });
  const json = (u) => ({ ...auth(u), 'content-type': 'application/json' });
  let created = 0;
  return [
    { name: 'GET / (home)', weight: 20, kind: 'read', request: () => ({ method: 'GET', path: '/' }) },
    { name: 'GET /allblogs', weight: 15, kind: 'read', request: () => ({ method: 'GET', path: `/allblogs?page=${1 + Math.floor(Math.random() * 5)}` }) },
    { name: 'GET /blogs/:id', weight: 15, kind: 'read', request: () => ({ method: 'GET', path: `/blogs/${pick(blogIds)}` }) },
    { name: 'GET /api/blogs', weight: 20, kind: 'read', request: () => ({ method: 'GET', path: `/api/blogs?limit=12&page=${1 + Math.floor(Math.random() * 5)}` }) },
    { name: 'GET /api/blogs/:id', weight: 10, kind: 'read', request: () => ({ method: 'GET', path: `/api/blogs/${pick(blogIds)}` }) },
    { name: 'PATCH like', weight: 6, kind: 'write', request: () => ({ method: 'PATCH', path: `/api/blogs/liked/${pick(blogIds)}`, headers: auth(pick(users)) }) },
    {
      name: 'PATCH comment',
      weight: 5,
      kind: 'write',
      request: () => ({ method: 'PATCH', path: `/api/blogs/${pick(blogIds)}`, headers: json(pick(users)), body: JSON.stringify({ commentText: 'Lovely light.' }) }),
    },
    {
      name: 'POST wishlist',
      weight: 5,
      kind: 'write',
      expect: [201, 200, 409],
      request: () => ({ method: 'POST', path: '/api/wishlist', headers: json(pick(users)), body: JSON.stringify({ blogId: pick(blogIds) }) }),
    },
    {
      name: 'POST blog',
      weight: 4,
      kind: 'write',
      request: () => ({ method: 'POST', path: '/api/blogs', headers: json(pick(users)), body: JSON.stringify({ ...BLOG, title: `Load blog ${++created}`, photo: pick(photos) }) }),
    },
  ];
}

/** Runs every route at once for `duration` s over `connections` in all; `during` runs meanwhile. */
export async function runRoutes(url, routes, { connections = 100, duration = 30, during } = {}) {
  const totalWeight = routes.reduce((s, r) => s + r.weight, 0);
  const runs = routes.map((route) => {
    const statuses = new Map();
    const errorKinds = new Map();
    const instance = autocannon({
      url,
      connections: Math.max(1, Math.round((connections * route.weight) / totalWeight)),
      duration,
      // Seconds: on a machine shared with other work, a slow answer is still an answer.
      timeout: 30,
      requests: [
        {
          setupRequest: (req) => ({ ...req, ...route.request() }),
          onResponse: (status, body) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            route.check?.(status, body);
          },
        },
      ],
    });
    // What a transport error was (a reset, a timeout, a refused connection), for the table.
    instance.on('reqError', (error) => {
      const kind = error?.code ?? error?.message ?? String(error);
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
    });
    return new Promise((resolve, reject) =>
      instance.on('done', (result) => {
        const expected = route.expect ?? [200, 201];
        const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
        const unexpected = [...statuses].filter(([s]) => !expected.includes(s)).reduce((a, [, n]) => a + n, 0);
        resolve({ route: route.name, kind: route.kind, result, statuses: Object.fromEntries(statuses), answered, unexpected, errors: result.errors + result.timeouts, errorKinds: Object.fromEntries(errorKinds) });
      }).on('error', reject),
    );
  });
  await during?.();
  return Promise.all(runs);
}

export function formatTable(rows, seconds) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const out = [line(['route', 'req/s', 'p50 ms', 'p99 ms', 'transport errors', 'non-2xx (by status)', 'unexpected'])];
  out.push(line(['---', '---:', '---:', '---:', '---:', '---', '---:']));
  for (const r of rows) {
    const non2xx = Object.entries(r.statuses).filter(([s]) => s < 200 || s >= 300).map(([s, n]) => `${s}: ${n}`).join(', ') || '0';
    const kinds = Object.entries(r.errorKinds ?? {}).map(([k, n]) => `${k}: ${n}`).join(', ');
    out.push(line([r.route, (r.answered / seconds).toFixed(0), r.result.latency.p50, r.result.latency.p99, kinds ? `${r.errors} (${kinds})` : r.errors, non2xx, r.unexpected]));
  }
  const total = rows.reduce((a, r) => ({ answered: a.answered + r.answered, errors: a.errors + r.errors, unexpected: a.unexpected + r.unexpected }), { answered: 0, errors: 0, unexpected: 0 });
  out.push(line(['**all**', (total.answered / seconds).toFixed(0), '', '', total.errors, '', total.unexpected]));
  return { table: out.join('\n'), ...total };
}

/** What must hold after any amount of concurrent writing, checked in PostgreSQL and the bucket. */
export async function checkInvariants(databaseUrl, mediaUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const one = async (q) => Number((await db.query(q)).rows[0].n);
    const likes = await one(`select count(*) as n from blogs b where b.likes <> (select count(distinct l.user_id) from likes l where l.blog_id = b.id)`);
    const wishlist = await one(`select count(*) as n from (select user_id, blog_id from wishlist group by user_id, blog_id having count(*) > 1) d`);
    const comments = await one(`select count(*) as n from blogs b where b.comments_count <> (select count(*) from comments c where c.blog_id = b.id)`);
    const photos = (await db.query(`select distinct photo from blogs where photo is not null`)).rows.map((r) => r.photo);
    let missing = 0;
    for (const photo of photos) {
      for (const width of [400, 800, 1600]) {
        const res = await fetch(photo.replace(/-\d+\.webp$/, `-${width}.webp`).replace(/^.*\/media\//, `${mediaUrl}/media/`), { method: 'HEAD' });
        if (res.status !== 200) missing++;
      }
    }
    const counts = (await db.query(`select (select count(*) from blogs) as blogs, (select count(*) from likes) as likes, (select count(*) from comments) as comments, (select count(*) from wishlist) as wishlist`)).rows[0];
    return { likes, wishlist, comments, missing, photos: photos.length, counts };
  } finally {
    await db.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '30' }, connections: { type: 'string', default: '100' }, port: { type: 'string', default: '8090' }, readers: { type: 'string', default: '100' } },
  });
  const duration = Number(values.duration);
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/afterglow_cluster_load';
  let cluster;
  try {
    await dropDatabase(databaseUrl);
    cluster = await startCluster({ port: Number(values.port), dir: path.join(root, 'data/cluster-load'), databaseUrl, rateLimits: 'off', quiet: true });
    console.log('load: seeding users, blogs and photos…');
    const seeded = await seed(cluster.url, { readers: Number(values.readers) });
    console.log(`load: ${seeded.users.length} readers, ${seeded.writers.length} authors, ${seeded.blogIds.length} blogs; ${values.connections} connections for ${duration} s, 80% reads / 20% writes, rate limits off`);
    const rows = await runRoutes(cluster.url, loadRoutes(cluster.url, seeded), { connections: Number(values.connections), duration });
    const { table, errors, unexpected } = formatTable(rows, duration);
    console.log(table);
    const inv = await checkInvariants(databaseUrl, cluster.url);
    console.log(
      `load: ${errors} transport errors, ${unexpected} unexpected non-2xx; invariants: ${inv.likes} blogs whose likes ≠ distinct likers, ${inv.wishlist} duplicate wishlist rows, ` +
        `${inv.comments} blogs whose comment count is off, ${inv.missing} missing images of ${inv.photos} photos × 3 widths (after: ${inv.counts.blogs} blogs, ${inv.counts.likes} likes, ${inv.counts.comments} comments, ${inv.counts.wishlist} wishlist rows)`,
    );
    process.exitCode = errors + unexpected + inv.likes + inv.wishlist + inv.comments + inv.missing === 0 ? 0 : 1;
  } catch (error) {
    console.error(`afterglow: load run failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await cluster?.stop();
  }
}
