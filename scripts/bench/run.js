// `npm run bench`: measures the production server on a seeded data set with autocannon and prints
// req/s, p50, p99, errors and non-2xx per scenario, each also as a ratio to a bare node:http
// "ceiling": a bare node:http server in a process of its own answering with the home page's status,
// headers and bytes, started in the same run, then cold start and peak memory. Writes
// bench/results/latest.{md,json} and <dialect>-<blogs>.json; a run on 100,000 blogs also prints
// how it compares with the last 1,000-blog run on the same database.
// Then the CPU budget: a kept anonymous blog page and a kept signed-in one, each on a server of its
// own under `--cpu-prof`, summarised by stage of the request path (scripts/bench/cpu-budget.js).
// Options: --blogs 1000|100000, --duration s, --connections n, --quick (CI-sized), --only text
// (scenarios whose name contains it; `--only budget` runs the CPU budget alone), --no-budget,
// DATABASE_URL env.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SEED_FORMAT, seed } from './seed.js';
import { BROWSER_HEADERS, cannon as benchCannon, cpuMsOf, LIVE_BLOGS, LIVE_COMMENT_EVERY_S, LIVE_LIKES_PER_S, LIVE_VIEWS_PER_S, median, rssOf, signInReader, signInWriters, startLiveActivity, WARM_UP_REQUESTS, warmPages, writeStreams, zipf } from './live.js';
import { startServerProcess } from '../../tests/support/processes.js';
import { ensureBuild, serverEnv, serverNodeFlags } from '../ensure-build.js';
import { heldBytesOf, memoryTable, readProbe } from './memory-probe.js';
import { MARKDOWN_LIMIT, worstPathologicalRender } from './markdown.js';
import { budgetTable, summariseProfile } from './cpu-budget.js';

const root = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    blogs: { type: 'string', default: '1000' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    'write-rate': { type: 'string', default: '1000' },
    budget: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const writeRate = Number(args['write-rate']);
const blogCount = Number(args.blogs);
const duration = Number(args.duration ?? (args.quick ? 3 : 10));
const connections = Number(args.connections);
const databaseUrl = process.env.DATABASE_URL;
const dialect = databaseUrl ? 'postgres' : 'sqlite';


/**
 * Records one answer of the app as autocannon receives it (no Accept-Encoding, so the same bytes)
 * and serves it from scripts/bench/ceiling.js in a process of its own, with the server's V8 flags:
 * the app has a process of its own, so its ceiling must too (docs/decisions/054).
 */
async function startCeiling(url) {
  const answer = await new Promise((resolve, reject) => {
    request(url, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
  // Hop-by-hop and per-answer headers are the server's own to write.
  const { date, connection, 'keep-alive': keepAlive, 'transfer-encoding': te, 'content-length': length, ...headers } = answer.headers;
  const file = path.join(tmpdir(), `afterglow-ceiling-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ status: answer.status, headers, body: answer.body.toString('base64') }));
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(import.meta.dirname, 'ceiling.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (${code})`)));
  });
  rmSync(file, { force: true });
  return { url: `http://127.0.0.1:${port}`, child, bytes: answer.body.length };
}

/**
 * The server as `npm start` runs it: its V8 flags and its allocator's environment. `probe`: a
 * file prefix for scripts/bench/memory-probe.js, loaded into it to sample where its memory goes.
 */
async function startApp(env, { probe } = {}) {
  const nodeFlags = [...serverNodeFlags(), ...(probe ? [`--import=${path.join(import.meta.dirname, 'memory-probe.js')}`] : [])];
  const app = await startServerProcess({ env: { ...serverEnv(), ...env, ...(probe ? { AFTERGLOW_MEMORY_PROBE: probe } : {}) }, nodeFlags, waitPath: '/', accept: (res) => res.status === 200, intervalMs: 5, quiet: true });
  return { url: app.url, child: app.child, coldStartMs: app.startMs };
}

const cannon = (opts) => benchCannon({ connections, duration, ...opts });

/**
 * One kept page under `--cpu-prof` on a server of its own: warmed like a scenario, then measured
 * for `duration`; the profile of that window summarised by stage (scripts/bench/cpu-budget.js).
 * V8 stamps samples with CLOCK_MONOTONIC in µs, as process.hrtime here, so the window is exact.
 */
async function profileKeptPage(env, { path: pagePath, headers }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'afterglow-cpu-prof-'));
  const app = await startServerProcess({ env: { ...serverEnv(), ...env }, nodeFlags: [...serverNodeFlags(), '--cpu-prof', `--cpu-prof-dir=${dir}`], waitPath: '/', accept: (res) => res.status === 200, intervalMs: 5, quiet: true });
  try {
    const url = `${app.url}${pagePath}`;
    await cannon({ url, headers, amount: WARM_UP_REQUESTS });
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const r = await cannon({ url, headers });
    const toUs = Number(process.hrtime.bigint() / 1000n);
    // The profile is written as the process exits.
    app.child.kill('SIGTERM');
    await new Promise((resolve) => app.child.once('exit', resolve));
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the profiled server wrote no .cpuprofile');
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    return { rps: r.requests.average, summary: summariseProfile(profile, { fromUs, toUs, requests: r.requests.total }) };
  } finally {
    if (app.child.exitCode === null) app.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  ensureBuild();
  const dataDir = path.join(root, 'bench/data', `${dialect}-${blogCount}`);
  const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const marker = path.join(dataDir, 'seeded.json');
  const seeded = existsSync(marker) ? JSON.parse(readFileSync(marker, 'utf8')) : null;
  if (seeded && seeded.format !== SEED_FORMAT) {
    if (databaseUrl) throw new Error(`the bench database needs a fresh seed (format ${SEED_FORMAT}): recreate it, then run again`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(marker) || seeded?.format !== SEED_FORMAT) {
    console.error(`seeding ${blogCount} blogs on ${dialect}…`);
    const result = await seed({ blogs: blogCount, env: { ...process.env, ...env } });
    writeFileSync(marker, JSON.stringify({ format: SEED_FORMAT, blogs: result.blogs, users: result.users, publicBlogIds: result.publicBlogIds.slice(0, 2000) }));
  }
  const { publicBlogIds, users } = JSON.parse(readFileSync(marker, 'utf8'));

  // Where the server's memory goes, sampled inside it every 100 ms (its peak by part).
  const probe = path.join(mkdtempSync(path.join(tmpdir(), 'afterglow-memory-')), 'server');
  const app = await startApp(env, { probe });
  // Whatever happens below, the server must not outlive the benchmark.
  process.once('exit', () => app.child.kill('SIGKILL'));
  const coldStarts = [app.coldStartMs];
  const sessions = await signInWriters(app.url);
  // The signed-in scenarios read as an account that writes nothing (signInReader); the markdown
  // check previews as a writer.
  const { cookie } = await signInReader(app.url);
  const writerCookie = sessions[0].cookie;

  const ceiling = await startCeiling(`${app.url}/`);
  process.once('exit', () => ceiling.child.kill('SIGKILL'));
  const ceilingUrl = ceiling.url;

  const blog = publicBlogIds[Math.floor(publicBlogIds.length / 2)];
  const deepPage = Math.max(1, Math.floor(blogCount / 12 / 2));
  // The marker remembers how far each write stream got on this data set.
  const pairsUsed = JSON.parse(readFileSync(marker, 'utf8')).pairsUsed ?? [0, 0, 0];
  const writer = writeStreams({ blogs: blogCount, users, sessions, pairsUsed });
  const [likeNext, commentNext, wishlistNext] = [writer(0), writer(1), writer(2)];
  const writing = { write: true, headers: { 'content-type': 'application/json' } };
  const scenarios = [
    { name: 'ceiling (bare node:http in its own process, home answer)', url: ceilingUrl, pid: () => ceiling.child.pid },
    { name: 'GET / (anonymous)', path: '/' },
    { name: 'GET / (anonymous, brotli)', path: '/', headers: { 'accept-encoding': 'br' } },
    { name: 'GET /allblogs', path: '/allblogs' },
    { name: `GET /allblogs?page=${deepPage}`, path: `/allblogs?page=${deepPage}` },
    { name: 'GET /allblogs?category=Technology', path: '/allblogs?category=Technology' },
    { name: `GET /allblogs?category=Technology&page=${Math.max(1, Math.floor(deepPage / 7))}`, path: `/allblogs?category=Technology&page=${Math.max(1, Math.floor(deepPage / 7))}` },
    // Search: a word in most seeded blogs (the worst case for ranking) and a rarer pair.
    { name: 'GET /allblogs?q=sunset', path: '/allblogs?q=sunset' },
    { name: 'GET /allblogs?q=lantern+harbour&category=Technology', path: '/allblogs?q=lantern+harbour&category=Technology' },
    { name: 'API GET /api/blogs?q=coffee', path: '/api/blogs?q=coffee' },
    { name: 'GET /blogs/{id}', path: `/blogs/${blog}` },
    { name: 'GET /featuredBlogs', path: '/featuredBlogs' },
    { name: 'API GET /api/blogs?page=2', path: '/api/blogs?page=2' },
    { name: 'API GET /api/blogs/{id}', path: `/api/blogs/${blog}` },
    { name: 'API GET /api/recent-blog', path: '/api/recent-blog' },
    { name: 'API GET /api/featuredblogs', path: '/api/featuredblogs' },
    { name: 'GET / (signed in)', path: '/', headers: { cookie } },
    { name: 'GET /blogs/{id} (signed in)', path: `/blogs/${blog}`, headers: { cookie } },
    {
      ...writing,
      name: `write: like (${writeRate}/s)`,
      requests: [{ method: 'PATCH', path: '/api/blogs/liked/{id}', body: '{}', setupRequest: (r) => likeNext(r) }],
    },
    {
      ...writing,
      name: `write: comment (${writeRate}/s)`,
      requests: [{ method: 'PATCH', path: '/api/blogs/{id}', body: JSON.stringify({ commentText: 'A lovely read, thank you.' }), setupRequest: (r) => commentNext(r) }],
    },
    {
      ...writing,
      name: `write: wishlist add (${writeRate}/s)`,
      requests: [
        {
          method: 'POST',
          path: '/api/wishlist',
          setupRequest: (r) =>
            wishlistNext(r, (blogId) =>
              JSON.stringify({ blogId, title: 'Saved', photo: null, category: 'Personal', description: 'Saved', createdAt: new Date().toISOString() }),
            ),
        },
      ],
    },
  ];
  const liveBlogs = publicBlogIds.slice(0, LIVE_BLOGS);
  const pick = zipf(liveBlogs.length);
  // A kept answer: the anonymous page cache's hit, or a signed-in page filled in from a kept render (decision 043).
  const isKept = (headers) => (headers?.['x-cache'] ?? headers?.['X-Cache']) === 'HIT' || ['kept', 'again'].includes(headers?.['x-render'] ?? headers?.['X-Render']);
  // How a signed-in answer was kept: `again` from the viewer memo, `kept` from the render memo after the loaders ran.
  const renderOf = (headers) => headers?.['x-render'] ?? headers?.['X-Render'];
  const live = (name, pathOf, { quiet = false, headers } = {}) => {
    const tally = { hits: 0, answers: 0, again: 0 };
    return {
      paths: liveBlogs.map(pathOf),
      name: `live: ${name}${headers?.cookie ? ' signed in' : ''}${headers?.['accept-encoding'] ? ' as a browser asks' : ''}${quiet ? ' (readers only)' : ` (${LIVE_VIEWS_PER_S} views/s, ${LIVE_LIKES_PER_S} likes/s, 1 comment/${LIVE_COMMENT_EVERY_S} s)`}`,
      live: !quiet,
      tally,
      headers,
      requests: [
        {
          method: 'GET',
          setupRequest: (r) => ({ ...r, path: pathOf(liveBlogs[pick()]) }),
          onResponse: (_status, _body, _context, responseHeaders) => {
            tally.answers++;
            if (isKept(responseHeaders)) tally.hits++;
            if (renderOf(responseHeaders) === 'again') tally.again++;
          },
        },
      ],
    };
  };
  scenarios.push(
    // Readers only after the live run of the same pages, so neither pays for a cold cache alone.
    live(`GET /blogs/{Zipf over ${LIVE_BLOGS}}`, (id) => `/blogs/${id}`),
    live(`GET /blogs/{Zipf over ${LIVE_BLOGS}}`, (id) => `/blogs/${id}`, { quiet: true }),
    live('GET /', () => '/'),
    live(`API GET /api/blogs/{Zipf over ${LIVE_BLOGS}}`, (id) => `/api/blogs/${id}`),
    // One signed-in reader over the same blogs, an account that only reads while the writers
    // like and comment: each page rendered once, then sent again, until a like or comment
    // changes what it shows (decisions 043, 059, 086).
    live(`GET /blogs/{Zipf over ${LIVE_BLOGS}}`, (id) => `/blogs/${id}`, { headers: { cookie } }),
    // The same two readers with the headers a browser sends (BROWSER_HEADERS): the scenarios above
    // send none, so their pages go out uncompressed, which no browser asks for (decision 096).
    live(`GET /blogs/{Zipf over ${LIVE_BLOGS}}`, (id) => `/blogs/${id}`, { headers: BROWSER_HEADERS }),
    live(`GET /blogs/{Zipf over ${LIVE_BLOGS}}`, (id) => `/blogs/${id}`, { headers: { ...BROWSER_HEADERS, cookie } }),
  );
  // The ceiling always runs: every figure is read as a share of it.
  const selected = scenarios.filter((s) => s.url || !args.only || s.name.includes(args.only));

  const rows = [];
  const held = {};
  let ceilingRps = 0;
  for (const s of selected) {
    const url = s.url ?? `${app.url}${s.path ?? ''}`;
    // A long-running site has its readers' pages kept already: each of the live pages is read
    // once before the warm-up, so the measured window shows the misses the activity causes (and
    // the age bound's), not the first read of up to 500 pages (docs/decisions/039).
    if (s.paths) await warmPages(app.url, [...new Set(s.paths)], { headers: s.headers, connections });
    const stopActivity = s.live ? startLiveActivity({ url: app.url, pick, blogs: liveBlogs, like: likeNext, comment: commentNext }) : null;
    // Warm up by count, not time: a signed-in page at ~250 req/s got 250 renders in a second,
    // too few for V8 to optimise React's paths, and its figure swung by a third between runs.
    await cannon({ url, headers: s.headers, amount: WARM_UP_REQUESTS, requests: s.requests, body: s.body, ...(s.write ? { overallRate: writeRate } : {}) });
    const serverPid = s.pid?.() ?? app.child.pid;
    const cpuBefore = cpuMsOf(serverPid);
    const r = await cannon({
      url,
      headers: s.headers,
      requests: s.requests,
      body: s.body,
      ...(s.write ? { overallRate: writeRate } : {}),
    });
    const activity = stopActivity?.() ?? null;
    // The caches' own counts after each scenario: the largest is the table's (they only grow to their bounds).
    if (!s.url) for (const [part, bytes] of Object.entries(await heldBytesOf(app.url))) held[part] = Math.max(held[part] ?? 0, bytes);
    const rps = r.requests.average;
    const cpuUsPerRequest = Math.round(((cpuMsOf(serverPid) - cpuBefore) * 1000) / Math.max(1, r.requests.total));
    if (s.url) ceilingRps = rps;
    rows.push({
      scenario: s.name,
      ceiling: Boolean(s.url),
      rps: Math.round(rps),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      ofCeiling: ceilingRps ? rps / ceilingRps : null,
      cpuUsPerRequest,
      // Warm-up and measurement together: the ratio a live site settles at.
      hitRatio: s.tally ? s.tally.hits / Math.max(1, s.tally.answers) : null,
      againRatio: s.tally?.again ? s.tally.again / Math.max(1, s.tally.answers) : null,
      activity,
      rssMb: Math.round(rssOf(app.child.pid, 'VmRSS')),
    });
    process.stderr.write(`  ${s.name}: ${Math.round(rps)} req/s\n`);
  }
  writeFileSync(marker, JSON.stringify({ ...JSON.parse(readFileSync(marker, 'utf8')), pairsUsed }));
  const peakRssMb = rssOf(app.child.pid, 'VmHWM');
  const idleRssMb = rssOf(app.child.pid, 'VmRSS');
  const memory = readProbe(probe, app.child.pid);
  rmSync(path.dirname(probe), { recursive: true, force: true });
  // After the memory figures: the render pool's threads are not part of a page's cost.
  const markdown = !args.only || 'markdown'.includes(args.only) ? await worstPathologicalRender(app.url, writerCookie) : null;
  app.child.kill('SIGTERM');
  await new Promise((r) => app.child.once('exit', r));
  ceiling.child.kill('SIGTERM');

  // Where each microsecond of a kept page goes: the bench's own reading of its figures.
  const budgets = [];
  if (args.budget && (!args.only || 'budget'.includes(args.only))) {
    for (const page of [
      { name: 'kept anonymous blog page', path: `/blogs/${blog}` },
      { name: 'kept signed-in blog page', path: `/blogs/${blog}`, headers: { cookie } },
    ]) {
      const { rps, summary } = await profileKeptPage(env, page);
      budgets.push({ name: `${page.name} (${Math.round(rps)} req/s profiled)`, summary });
      process.stderr.write(`  CPU budget, ${page.name}: ${summary.busyUsPerRequest.toFixed(0)} µs of main-thread CPU per request\n`);
    }
  }

  for (let i = 0; i < 4; i++) {
    const again = await startApp(env);
    coldStarts.push(again.coldStartMs);
    again.child.kill('SIGTERM');
    await new Promise((r) => again.child.once('exit', r));
  }

  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    dialect,
    blogs: blogCount,
    duration,
    connections,
    coldStartMsMedian: Math.round(median(coldStarts)),
    peakRssMb: Math.round(peakRssMb),
    rssAfterMb: Math.round(idleRssMb),
    memory: memory && { ...memory, held },
    markdown,
    rows,
    budgets,
  };
  const table = [
    `Afterglow benchmark — ${dialect}, ${blogCount} blogs, ${connections} connections, ${duration} s per scenario, Node ${process.version}`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | errors | non-2xx | of ceiling | server CPU µs/req | cache hits |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.ofCeiling === null ? '' : `${(r.ofCeiling * 100).toFixed(0)}%`} | ${r.cpuUsPerRequest ?? ''} | ${r.hitRatio === null ? '' : `${(r.hitRatio * 100).toFixed(0)}%`}${r.againRatio === null ? '' : ` (${(r.againRatio * 100).toFixed(0)}% sent again)`} |`,
    ),
    ...rows
      .filter((r) => r.activity)
      .map((r) => `${r.scenario}: sent ${r.activity.views} views, ${r.activity.likes} likes, ${r.activity.comments} comments meanwhile (${r.activity.failed} failed)`),
    '',
    `cold start (process start → first 200, median of ${coldStarts.length}): ${summary.coldStartMsMedian} ms`,
    `server peak resident memory: ${summary.peakRssMb} MB (at the end: ${summary.rssAfterMb} MB; after each scenario: ${rows.filter((r) => !r.ceiling).map((r) => r.rssMb).join(', ')} MB)`,
    // Only after a scenario of the app's: the ceiling alone (`--only budget`) fills no cache.
    ...(memory && rows.some((r) => !r.ceiling) ? ['', 'Server memory by part, MB: sampled inside the server every 100 ms, at the sample where its resident memory peaked (scripts/bench/memory-probe.js); the caches\' own counts from /metrics, the largest after a scenario:', '', memoryTable(memory, held, { pageCacheMb: Number(process.env.PAGE_CACHE_MB ?? 32), renderMemoMb: Number(process.env.RENDER_MEMO_MB ?? 16) })] : []),
    ...(markdown
      ? [`markdown: worst render of ${markdown.bodies} pathological bodies at ${MARKDOWN_LIMIT.toLocaleString('en')} chars = ${markdown.worstMs} ms (${markdown.worstBody}, a preview through the server)${markdown.refused.length ? `; refused: ${markdown.refused.join(', ')}` : ''}`]
      : []),
  ].join('\n');
  const budgetReport = budgets.length
    ? ['', `CPU budget (main thread, \`--cpu-prof\`, ${duration} s of one kept page each; the profiler itself adds a little):`, '', budgetTable(budgets)].join('\n')
    : '';
  const results = path.join(root, 'bench/results');
  // Figures at 100,000 blogs should be within 1.5× of those at 1,000
  // (docs/product.md#speed-safety-and-accessibility). Each run is kept per data
  // set; a run on a larger one is compared with the last 1,000-blog run on the same database, as
  // shares of each run's own ceiling (so two runs on a busy machine still compare).
  const baselineFile = path.join(results, `${dialect}-1000.json`);
  const baseline = blogCount !== 1000 && existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, 'utf8')) : null;
  const scaling = (baseline?.rows ?? []).flatMap((before) => {
    const now = rows.find((r) => r.scenario === before.scenario);
    if (!now?.ofCeiling || !before.ofCeiling || now.ceiling || before.cpuUsPerRequest === null) return [];
    const slower = before.ofCeiling / now.ofCeiling;
    return [`| ${now.scenario} | ${(before.ofCeiling * 100).toFixed(0)}% | ${(now.ofCeiling * 100).toFixed(0)}% | ${before.cpuUsPerRequest} → ${now.cpuUsPerRequest} | ${slower.toFixed(2)}× | ${slower <= 1.5 ? 'yes' : 'NO'} |`];
  });
  const report = [
    table + budgetReport,
    ...(scaling.length
      ? ['', `At ${blogCount} blogs against the 1,000-blog run of ${baseline.date} (shares of each run's ceiling):`, '', '| scenario | 1,000 blogs | this run | server CPU µs/req | slower by | within 1.5× |', '|---|---:|---:|---:|---:|---|', ...scaling]
      : []),
  ].join('\n');
  console.log(report);
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, 'latest.md'), `${report}\n`);
  writeFileSync(path.join(results, 'latest.json'), `${JSON.stringify(summary, null, 2)}\n`);
  // A partial run (--only) replaces only the scenarios it ran in the data set's figures.
  const setFile = path.join(results, `${dialect}-${blogCount}.json`);
  const kept = args.only && existsSync(setFile) ? JSON.parse(readFileSync(setFile, 'utf8')).rows.filter((r) => !rows.some((now) => now.scenario === r.scenario)) : [];
  writeFileSync(setFile, `${JSON.stringify({ ...summary, rows: [...kept, ...rows] }, null, 2)}\n`);
}

await main();
