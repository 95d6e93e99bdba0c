// `npm run lighthouse`: Lighthouse 12 (mobile) on /, /allblogs, /blogs/{id}, /featuredBlogs and /authors/{id} of the
// production build with a small seeded data set; prints the four category scores and the
// JavaScript each page loads: gzipped, and as sent (brotli bodies plus headers). Uses Debian's
// Chromium (CHROME_PATH).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { seed } from './bench/seed.js';
import { ensureBuild, serverNodeFlags } from './ensure-build.js';

const root = path.resolve(import.meta.dirname, '..');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-lighthouse-'));
const { publicBlogIds } = await seed({ blogs: 60, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, log: false });
const port = await freePort();
const server = spawn(process.execPath, [...serverNodeFlags(), 'server.js'], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // not up yet
  }
  await new Promise((r) => setTimeout(r, 100));
}

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const audit = async (page) =>
  (
    await lighthouse(`${base}${page}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    })
  ).lhr;
// The blog's byline links to its writer's page (issue 17).
const authorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fetch(`${base}/blogs/${publicBlogIds[3]}`)).text())?.[1];
const pages = ['/', '/allblogs', `/blogs/${publicBlogIds[3]}`, '/featuredBlogs', ...(authorPath ? [authorPath] : [])];
const rows = [];
try {
  for (const page of pages) {
    let lhr = await audit(page);
    // A run that Chrome broke (no first paint, a lost target) scores 0: try that page once more.
    if (lhr.runtimeError) {
      console.error(`lighthouse: ${page}: ${lhr.runtimeError.code}; trying again`);
      lhr = await audit(page);
    }
    const requests = lhr.audits['network-requests']?.details?.items ?? [];
    const scripts = requests.filter((r) => r.resourceType === 'Script');
    // Two honest figures: what the browser received (brotli bodies plus response headers, as
    // Lighthouse counts it), and the measure, the scripts gzipped (level 9, as the
    // build precompresses them).
    const sentBytes = scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    let gzipBytes = 0;
    for (const r of scripts) {
      const body = Buffer.from(await (await fetch(r.url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
      gzipBytes += gzipSync(body, { level: 9 }).length;
    }
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    rows.push({
      page: page.startsWith('/blogs/') ? '/blogs/{id}' : page.startsWith('/authors/') ? '/authors/{id}' : page,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      jsGzipKb: (gzipBytes / 1024).toFixed(1),
      jsSentKb: (sentBytes / 1024).toFixed(1),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      failing: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id)
        .slice(0, 8),
    });
  }
} finally {
  await chrome.kill();
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

console.log('| page | performance | accessibility | best practices | SEO | JS gzipped KB | JS sent KB (brotli + headers) | LCP ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.page} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.jsGzipKb} | ${r.jsSentKb} | ${r.lcpMs} |`);
for (const r of rows) if (r.failing.length) console.log(`${r.page}: failing audits: ${r.failing.join(', ')}`);
