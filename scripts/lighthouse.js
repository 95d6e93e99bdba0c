// `npm run lighthouse [-- --runs 3 --only /allblogs]`: Lighthouse 12 (mobile) on /, /allblogs, /blogs/{id},
// /featuredBlogs and /authors/{id} of the production build with a small seeded data set; prints
// the four category scores, the metrics behind performance and the JavaScript each page loads:
// gzipped, and as sent (brotli bodies plus headers). With --runs N each page is audited N times
// and the medians are printed (a shared machine's load moves single runs). Uses Debian's
// Chromium (CHROME_PATH).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { seed } from './bench/seed.js';
import { startServerProcess } from '../tests/support/processes.js';
import { ensureBuild, serverNodeFlags } from './ensure-build.js';

const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '1' }, only: { type: 'string' }, save: { type: 'string' } } });
const RUNS = Math.max(1, Number(args.runs) || 1);
if (args.save) mkdirSync(args.save, { recursive: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-lighthouse-'));
const { publicBlogIds } = await seed({ blogs: 60, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, log: false });
const server = await startServerProcess({
  env: { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', RATE_LIMITS: 'on' },
  nodeFlags: serverNodeFlags(),
});
const base = server.url;

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const metric = (lhr, id, scale = 1) => Math.round((lhr.audits[id]?.numericValue ?? 0) * scale);
const audit = async (page) =>
  (
    await lighthouse(`${base}${page}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    })
  ).lhr;
// The blog's byline links to its writer's page, the fifth page measured.
const authorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fetch(`${base}/blogs/${publicBlogIds[3]}`)).text())?.[1];
const pages = ['/', '/allblogs', `/blogs/${publicBlogIds[3]}`, '/featuredBlogs', ...(authorPath ? [authorPath] : [])].filter(
  (page) => !args.only || page === args.only || page.startsWith(`${args.only}/`),
);

/** One audit of one page: scores, metrics, scripts (gzipped and as sent), failing audits. */
async function measure(page, run) {
  let lhr = await audit(page);
  // A run that Chrome broke (no first paint, a lost target) scores 0: try that page once more.
  if (lhr.runtimeError) {
    console.error(`lighthouse: ${page}: ${lhr.runtimeError.code}; trying again`);
    lhr = await audit(page);
  }
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  // Two honest figures: what the browser received (brotli bodies plus response headers, as
  // Lighthouse counts it), and the issue's measure, the scripts gzipped (level 9, as the
  // build precompresses them).
  const sentBytes = scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  let gzipBytes = 0;
  for (const r of scripts) {
    const body = Buffer.from(await (await fetch(r.url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  if (args.save) writeFileSync(path.join(args.save, `${page.replaceAll('/', '_')}-${run + 1}.json`), JSON.stringify(lhr));
  return {
    page: page.startsWith('/blogs/') ? '/blogs/{id}' : page.startsWith('/authors/') ? '/authors/{id}' : page,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    jsGzipKb: (gzipBytes / 1024).toFixed(1),
    jsSentKb: (sentBytes / 1024).toFixed(1),
    fcpMs: metric(lhr, 'first-contentful-paint'),
    lcpMs: metric(lhr, 'largest-contentful-paint'),
    tbtMs: metric(lhr, 'total-blocking-time'),
    cls: metric(lhr, 'cumulative-layout-shift', 1000) / 1000,
    siMs: metric(lhr, 'speed-index'),
    // Lighthouse's own measure of the machine's speed during the run: a loaded machine scores low and slows every metric.
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
    failing: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id)
      .slice(0, 8),
  };
}

const rows = [];
try {
  for (const page of pages) for (let run = 0; run < RUNS; run++) rows.push(await measure(page, run));
} finally {
  await chrome.kill();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const NUMERIC = ['performance', 'accessibility', 'bestPractices', 'seo', 'jsGzipKb', 'jsSentKb', 'fcpMs', 'lcpMs', 'tbtMs', 'cls', 'siMs', 'benchmarkIndex'];
const summary = [];
for (const page of new Set(rows.map((r) => r.page))) {
  const runs = rows.filter((r) => r.page === page);
  const row = { page, failing: [...new Set(runs.flatMap((r) => r.failing))] };
  for (const key of NUMERIC) row[key] = median(runs.map((r) => Number(r[key])));
  row.performanceRuns = runs.map((r) => r.performance).join('/');
  summary.push(row);
}
if (RUNS > 1) console.log(`medians of ${RUNS} runs per page (performance of each run in brackets)`);
console.log('| page | performance | accessibility | best practices | SEO | JS gzipped KB | JS sent KB (brotli + headers) | FCP ms | LCP ms | TBT ms | CLS | SI ms | benchmark index |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of summary)
  console.log(
    `| ${r.page} | ${r.performance}${RUNS > 1 ? ` (${r.performanceRuns})` : ''} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.jsGzipKb.toFixed(1)} | ${r.jsSentKb.toFixed(1)} | ${r.fcpMs} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls.toFixed(3)} | ${r.siMs} | ${r.benchmarkIndex} |`,
  );
for (const r of summary) if (r.failing.length) console.log(`${r.page}: failing audits: ${r.failing.join(', ')}`);
