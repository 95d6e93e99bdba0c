// The live scenarios of `npm run bench` (docs/decisions/039), shared with the benches of background
// work: readers spread over LIVE_BLOGS blogs by Zipf popularity while other clients send
// first-visit views, likes and comments at fixed rates. `livePagesDuring` runs the anonymous
// blog-page scenario without background work, while it runs, and once it is over.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { scratchPostgres } from '../../tests/support/processes.js';
import { BENCH_PASSWORD, benchUserEmail, seed, WRITERS, writePairs } from './seed.js';

export const LIVE_BLOGS = 500;
export const LIVE_VIEWS_PER_S = 5;
export const LIVE_LIKES_PER_S = 2;
export const LIVE_COMMENT_EVERY_S = 10;
export const WARM_UP_REQUESTS = 1500;
/**
 * The headers Chromium sends with a page it navigates to (docs/decisions/096): above all
 * Accept-Encoding, which decides whether a page goes out compressed; and Accept-Language, part of
 * the page cache's and the viewer memo's keys.
 */
export const BROWSER_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'same-origin',
  'upgrade-insecure-requests': '1',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

/** autocannon with `connections` and `duration` given by the caller; a key set to undefined would count as a value. */
export function cannon(opts) {
  const defined = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  return new Promise((resolve, reject) => {
    autocannon(defined, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

// utime + stime of a process in ms (clock ticks are 10 ms on Linux): CPU a scenario cost the
// server, which stays meaningful when the load generator competes for the same cores.
export const cpuMsOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
export const rssOf = (pid, field) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024;

/** Picks 0…n-1 with probability ∝ 1/(rank+1): a few blogs are read a lot, most a little. */
export function zipf(n) {
  const cumulative = [];
  let total = 0;
  for (let k = 1; k <= n; k++) cumulative.push((total += 1 / k));
  return () => {
    const x = Math.random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const BENCH_WRITERS = Array.from({ length: WRITERS }, (_, w) => ({ email: benchUserEmail(w), password: BENCH_PASSWORD }));

/** Signs the bench writers (or `accounts`) in: a cookie and a bearer token each. */
export async function signInWriters(url, accounts = BENCH_WRITERS) {
  const sessions = [];
  for (const { email, password } of accounts) {
    const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, password }),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    if (!signIn.ok || !cookie) throw new Error(`bench sign-in failed: ${signIn.status}`);
    sessions.push({ cookie, bearer: `Bearer ${signIn.headers.get('set-auth-token')}` });
  }
  return sessions;
}

/**
 * The signed-in reader of the bench: an account of its own that only reads (signed up on the first
 * run against a data set, signed in after). The writers like and comment while it reads: were it
 * one of them, its own writes would empty its kept pages, and the scenario is one reader
 * while others write (decision 086).
 */
export async function signInReader(url) {
  const account = { email: 'reader@bench.afterglow.test', password: BENCH_PASSWORD };
  const [session] = await signInWriters(url, [account]).catch(async () => {
    const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ ...account, name: 'Bench Reader' }),
    });
    await signUp.arrayBuffer();
    if (!signUp.ok) throw new Error(`bench reader sign-up failed: ${signUp.status}`);
    return signInWriters(url, [account]);
  });
  return session;
}

/**
 * Every write walks (writer, blog) pairs none used before — in this run or an earlier one on the
 * same data set (`pairsUsed`, one count per stream, which the caller may keep) — so each request
 * is a real write by one of WRITERS accounts, not a repeat answering 409 or a no-op.
 */
export function writeStreams({ blogs, users, sessions, pairsUsed }) {
  return (index) => {
    const pairs = writePairs({ blogs, users });
    for (let i = 0; i < pairsUsed[index]; i++) pairs.next();
    return (r, body = () => r.body) => {
      pairsUsed[index]++;
      const next = pairs.next();
      if (next.done) throw new Error('the data set ran out of write targets: use a shorter --duration or a larger --blogs');
      const { writer: w, blogId } = next.value;
      return { ...r, headers: { ...r.headers, authorization: sessions[w].bearer }, path: r.path.replace('{id}', blogId), body: body(blogId) };
    };
  };
}

/**
 * What happens on a live site besides reading, from other clients: each view a first visit (a new
 * visitor), likes and comments by the bench writers. Started before a live scenario's warm-up,
 * stopped after its measurement; answers what it sent and what failed.
 */
export function startLiveActivity({ url, pick, blogs, like, comment }) {
  const sent = { views: 0, likes: 0, comments: 0, failed: 0 };
  let visitor = 0;
  const send = (kind, request) =>
    fetch(`${url}${request.path}`, { method: request.method, headers: { origin: url, 'content-type': 'application/json', ...request.headers }, body: request.body })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.ok) sent[kind]++;
        else sent.failed++;
      })
      .catch(() => sent.failed++);
  const timers = [
    setInterval(() => send('views', { method: 'PATCH', path: `/api/blogs/${blogs[pick()]}/view`, headers: { 'user-agent': `bench-visitor-${process.pid}-${++visitor}` } }), 1000 / LIVE_VIEWS_PER_S),
    setInterval(() => send('likes', like({ method: 'PATCH', path: '/api/blogs/liked/{id}', body: '{}', headers: {} })), 1000 / LIVE_LIKES_PER_S),
    setInterval(() => send('comments', comment({ method: 'PATCH', path: '/api/blogs/{id}', body: JSON.stringify({ commentText: 'Read it twice.' }), headers: {} })), LIVE_COMMENT_EVERY_S * 1000),
  ];
  return () => {
    for (const timer of timers) clearInterval(timer);
    return sent;
  };
}

/**
 * Reads each path once, by the same client as the measurement (fetch would add its own
 * Accept-Language, which is part of the page cache's key), so the page cache has them all.
 */
export async function warmPages(url, paths, { headers, connections }) {
  let next = 0;
  const r = await cannon({ url, headers, amount: paths.length, connections: Math.min(connections, paths.length), requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] });
  if (r.non2xx || r.errors) throw new Error(`warming ${paths.length} pages: ${r.non2xx} answers not 2xx, ${r.errors} errors`);
}

export const LIVE_BLOG_PAGES = `live: GET /blogs/{Zipf over ${LIVE_BLOGS}} (${LIVE_VIEWS_PER_S} views/s, ${LIVE_LIKES_PER_S} likes/s, 1 comment/${LIVE_COMMENT_EVERY_S} s)`;

/** The middle of `values` (the mean of the two middles when their number is even). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
};

/** Milliseconds on the monotonic clock V8 stamps a `--cpu-prof` profile's samples with (µs there). */
export const monotonicMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;

/**
 * How long a blog page stays kept without a change: the counts' age bound (COUNTS_MAX_AGE_S, 30 s
 * unless the bench's environment sets it), of which the view flush takes a share.
 */
const KEPT_PAGE_MS = Number(process.env.COUNTS_MAX_AGE_S ?? 30) * 1000;

/**
 * The live anonymous blog-page scenario three times on one server: without background work,
 * while the work `start()` sets going runs, and after it ended. `start` resolves once the work is
 * under way, to `{ running(): boolean, done: Promise<result>, window?(open: boolean) }` (told when
 * the window during the work opens and closes); a window the work did not cover to its end is
 * reported (`covered: false`), since its figure would mix both states. `rewarm`: the pages are
 * warmed again after `start`, when starting the work makes them stale (a publish), so the window
 * during the work starts from kept pages as the windows without it do.
 *
 * Every window starts from pages all rendered at its warm-up: a page past the age bound is
 * rendered again when read, and pages rendered together in one warm-up age out together, so a
 * window that caught their age-out did hundreds of renders the others did not (decision 099). So
 * each warm-up but the one after `start` first waits until the last one's pages have aged out.
 */
export async function livePagesDuring({ url, pid, publicBlogIds, write, connections, duration, start, rewarm = false, marks = null, pages = { renderedAt: null } }) {
  const blogs = publicBlogIds.slice(0, LIVE_BLOGS);
  const pick = zipf(blogs.length);
  const tally = { hits: 0, answers: 0 };
  const requests = [
    {
      method: 'GET',
      setupRequest: (r) => ({ ...r, path: `/blogs/${blogs[pick()]}` }),
      onResponse: (_status, _body, _context, headers) => {
        tally.answers++;
        if ((headers?.['x-cache'] ?? headers?.['X-Cache']) === 'HIT') tally.hits++;
      },
    },
  ];
  const [like, comment] = [write(0), write(1)];
  // Each run starts from kept pages, as on a site read all along, all rendered at its warm-up:
  // `renew` first waits until the pages of the last warm-up that rendered them (`pages`, shared by
  // the rounds of one bench) have aged out.
  const warm = async ({ renew = true } = {}) => {
    if (renew && pages.renderedAt !== null) await new Promise((r) => setTimeout(r, Math.max(0, pages.renderedAt + KEPT_PAGE_MS + 1000 - Date.now())));
    if (renew) pages.renderedAt = Date.now();
    await warmPages(url, blogs.map((id) => `/blogs/${id}`), { connections });
    await measure({ amount: WARM_UP_REQUESTS, duration: undefined });
  };
  const measure = async (opts = {}, name = 'warm-up') => {
    Object.assign(tally, { hits: 0, answers: 0 });
    const stop = startLiveActivity({ url, pick, blogs, like, comment });
    const cpuBefore = cpuMsOf(pid);
    const from = monotonicMs();
    const r = await cannon({ url, connections, duration, requests, ...opts });
    // A profile's samples are stamped with the same monotonic clock: the window is found in it.
    if (marks) marks.push({ name, from, to: monotonicMs() });
    const activity = stop();
    return {
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      cpuUsPerRequest: Math.round(((cpuMsOf(pid) - cpuBefore) * 1000) / Math.max(1, r.requests.total)),
      hitRatio: tally.hits / Math.max(1, tally.answers),
      activity,
    };
  };
  await warm();
  const alone = await measure({}, 'without (before)');
  await warm();
  const work = await start();
  // `rewarm`: what starting the work made stale is kept again first, as before the runs without it.
  if (rewarm) await warm({ renew: false });
  await work.window?.(true);
  const during = await measure({}, 'during');
  await work.window?.(false);
  const covered = work.running();
  const result = await work.done;
  await warm();
  const after = await measure({}, 'without (after)');
  return { alone, during, after, covered, result };
}

/** The figures of livePagesDuring as table rows, and the ratio of `during` to the mean of the runs without. */
export function livePagesTable({ alone, during, after, covered }, workName) {
  const without = (alone.rps + after.rps) / 2;
  const row = (name, r) => `| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.cpuUsPerRequest} | ${(r.hitRatio * 100).toFixed(0)}% | ${r.activity.views}/${r.activity.likes}/${r.activity.comments} (${r.activity.failed} failed) |`;
  return {
    ratio: during.rps / without,
    lines: [
      `${LIVE_BLOG_PAGES}, anonymous:`,
      '',
      '| run | req/s | p50 ms | p99 ms | errors | non-2xx | server CPU µs/req | kept answers | views/likes/comments sent |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|',
      row('without (before)', alone),
      row(`during ${workName}${covered ? '' : ' (the work ended inside the window)'}`, during),
      row('without (after)', after),
      '',
      `during / without (mean of before and after): ${((during.rps / without) * 100).toFixed(0)}% of req/s; p99 ${during.p99} ms against ${alone.p99} and ${after.p99} ms`,
    ],
  };
}

/**
 * A seeded site of its own for a bench of background work, which changes what it runs on: a
 * fresh DATA_DIR, and on PostgreSQL (DATABASE_URL) a scratch database beside that one, both
 * removed by `remove()`. `env` is what the app and `openDeps` are started with.
 */
export async function freshSite({ blogs, env: extra = {} }) {
  const scratch = process.env.DATABASE_URL ? await scratchPostgres(process.env.DATABASE_URL, 'afterglow_bench') : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-bench-'));
  const env = { DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}), ...extra };
  const remove = async () => {
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const seeded = await seed({ blogs, env: { ...process.env, ...env }, log: false });
    return { env, dataDir, dialect: scratch ? 'postgres' : 'sqlite', seeded, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
