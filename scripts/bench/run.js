// `npm run bench`: measures the production server on a seeded data set with autocannon and prints
// req/s, p50, p99, errors and non-2xx per scenario, each also as a ratio to a bare node:http
// "ceiling" serving the home page's bytes in the same run. Writes bench/results/latest.{md,json}.
// Options: --blogs 1000|100000, --duration s, --connections n, --quick (CI-sized), DATABASE_URL env.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, benchUserEmail, seed } from './seed.js';

const root = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    blogs: { type: 'string', default: '1000' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const blogCount = Number(args.blogs);
const duration = Number(args.duration ?? (args.quick ? 3 : 10));
const connections = Number(args.connections);
const databaseUrl = process.env.DATABASE_URL;
const dialect = databaseUrl ? 'postgres' : 'sqlite';

function ensureBuild() {
  if (existsSync(path.join(root, 'build/server/index.js'))) return;
  const r = spawnSync(process.execPath, ['scripts/build.js'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startApp(env) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['server.js'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start');
    try {
      const res = await fetch(`${url}/`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return { url, child, coldStartMs: performance.now() - started };
}

const rssOf = (pid, field) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024;

function cannon(opts) {
  // autocannon treats a key set to undefined as a value: pass only what a scenario sets.
  const defined = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration, ...defined }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  ensureBuild();
  const dataDir = path.join(root, 'bench/data', `${dialect}-${blogCount}`);
  const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const marker = path.join(dataDir, 'seeded.json');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(marker)) {
    console.error(`seeding ${blogCount} blogs on ${dialect}…`);
    const result = await seed({ blogs: blogCount, env: { ...process.env, ...env } });
    writeFileSync(marker, JSON.stringify({ blogs: result.blogs, publicBlogIds: result.publicBlogIds.slice(0, 2000), writeTargetIds: result.writeTargetIds }));
  }
  const { publicBlogIds, writeTargetIds } = JSON.parse(readFileSync(marker, 'utf8'));

  const app = await startApp(env);
  // Whatever happens below, the server must not outlive the benchmark.
  process.once('exit', () => app.child.kill('SIGKILL'));
  const coldStarts = [app.coldStartMs];
  const signIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ email: benchUserEmail(0), password: BENCH_PASSWORD }),
  });
  const token = signIn.headers.get('set-auth-token');
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!signIn.ok || !cookie) throw new Error(`bench sign-in failed: ${signIn.status}`);

  const homeBytes = Buffer.from(await (await fetch(`${app.url}/`)).arrayBuffer());
  const ceiling = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': homeBytes.length });
    res.end(homeBytes);
  });
  await new Promise((r) => ceiling.listen(0, '127.0.0.1', r));
  const ceilingUrl = `http://127.0.0.1:${ceiling.address().port}`;

  const blog = publicBlogIds[Math.floor(publicBlogIds.length / 2)];
  const deepPage = Math.max(1, Math.floor(blogCount / 12 / 2));
  // Each write scenario walks its own third of the targets, so writes do not repeat one another
  // (a repeat measures the 409 or no-op path, not the write). A 1,000-blog set has about 300
  // targets per scenario, fewer than 200/s for the whole duration needs: repeats then show as
  // non-2xx; use --blogs 100000 for clean write figures.
  const third = Math.floor(writeTargetIds.length / 3);
  const walker = (start) => {
    let n = 0;
    return () => writeTargetIds[start + (n++ % third)];
  };
  const [likeTarget, commentTarget, wishlistTarget] = [walker(0), walker(third), walker(2 * third)];
  const authed = { authorization: `Bearer ${token}` };
  const scenarios = [
    { name: 'ceiling (bare node:http, home bytes)', url: ceilingUrl },
    { name: 'GET / (anonymous)', path: '/' },
    { name: 'GET /allblogs', path: '/allblogs' },
    { name: `GET /allblogs?page=${deepPage}`, path: `/allblogs?page=${deepPage}` },
    { name: 'GET /allblogs?category=Technology', path: '/allblogs?category=Technology' },
    { name: `GET /allblogs?category=Technology&page=${Math.max(1, Math.floor(deepPage / 7))}`, path: `/allblogs?category=Technology&page=${Math.max(1, Math.floor(deepPage / 7))}` },
    { name: 'GET /blogs/{id}', path: `/blogs/${blog}` },
    { name: 'GET /featuredBlogs', path: '/featuredBlogs' },
    { name: 'API GET /api/blogs?page=2', path: '/api/blogs?page=2' },
    { name: 'API GET /api/blogs/{id}', path: `/api/blogs/${blog}` },
    { name: 'API GET /api/recent-blog', path: '/api/recent-blog' },
    { name: 'API GET /api/featuredblogs', path: '/api/featuredblogs' },
    { name: 'GET / (signed in)', path: '/', headers: { cookie } },
    { name: 'GET /blogs/{id} (signed in)', path: `/blogs/${blog}`, headers: { cookie } },
    {
      name: 'write: like (200/s)',
      write: true,
      requests: [{ method: 'PATCH', setupRequest: (r) => ({ ...r, path: `/api/blogs/liked/${likeTarget()}` }) }],
      headers: { ...authed, 'content-type': 'application/json' },
      body: '{}',
    },
    {
      name: 'write: comment (200/s)',
      write: true,
      requests: [{ method: 'PATCH', setupRequest: (r) => ({ ...r, path: `/api/blogs/${commentTarget()}` }) }],
      headers: { ...authed, 'content-type': 'application/json' },
      body: JSON.stringify({ commentText: 'A lovely read, thank you.' }),
    },
    {
      name: 'write: wishlist add (200/s)',
      write: true,
      requests: [
        {
          method: 'POST',
          path: '/api/wishlist',
          setupRequest: (r) => {
            const id = wishlistTarget();
            return { ...r, body: JSON.stringify({ blogId: id, title: 'Saved', photo: null, category: 'Personal', description: 'Saved', createdAt: new Date().toISOString() }) };
          },
        },
      ],
      headers: { ...authed, 'content-type': 'application/json' },
    },
  ].filter((s) => !args.only || s.name.includes(args.only));

  const rows = [];
  let ceilingRps = 0;
  for (const s of scenarios) {
    const url = s.url ?? `${app.url}${s.path ?? ''}`;
    await cannon({ url, headers: s.headers, duration: 1, requests: s.requests, body: s.body, ...(s.write ? { overallRate: 200 } : {}) });
    const r = await cannon({
      url,
      headers: s.headers,
      requests: s.requests,
      body: s.body,
      ...(s.write ? { overallRate: 200 } : {}),
    });
    const rps = r.requests.average;
    if (s.url) ceilingRps = rps;
    rows.push({
      scenario: s.name,
      rps: Math.round(rps),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      ofCeiling: ceilingRps ? rps / ceilingRps : null,
    });
    process.stderr.write(`  ${s.name}: ${Math.round(rps)} req/s\n`);
  }
  const peakRssMb = rssOf(app.child.pid, 'VmHWM');
  const idleRssMb = rssOf(app.child.pid, 'VmRSS');
  app.child.kill('SIGTERM');
  await new Promise((r) => app.child.once('exit', r));
  ceiling.close();

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
    rows,
  };
  const table = [
    `Afterglow benchmark — ${dialect}, ${blogCount} blogs, ${connections} connections, ${duration} s per scenario, Node ${process.version}`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | errors | non-2xx | of ceiling |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.ofCeiling === null ? '' : `${(r.ofCeiling * 100).toFixed(0)}%`} |`),
    '',
    `cold start (process start → first 200, median of ${coldStarts.length}): ${summary.coldStartMsMedian} ms`,
    `server peak resident memory: ${summary.peakRssMb} MB (at the end: ${summary.rssAfterMb} MB)`,
  ].join('\n');
  console.log(table);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/latest.md'), `${table}\n`);
  writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(summary, null, 2)}\n`);
}

await main();
