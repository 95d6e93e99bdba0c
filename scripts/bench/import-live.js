// `npm run bench:import-live`: a WordPress export of 10,000 posts and 2,000 pictures imported
// through the real job while the site is read (docs/decisions/072, 073). The production server
// (built; SQLite, or PostgreSQL with DATABASE_URL) runs on a freshly seeded data set in a process
// of its own with IMAGE_FETCH_ALLOW_LOOPBACK=on; the pictures come from scripts/bench/image-host.js,
// in a process of its own. The archive is uploaded on the "Import posts" screen by a writer, and
// the category mapping confirmed there, as a writer does.
// Prints the scan's time, the import's time, items (posts and pictures) per second and the app's
// peak memory, then the live anonymous blog-page scenario without the import, while it runs, and
// after it ended.
// Options: --posts 10000, --images 2000, --blogs 1000, --duration 10, --connections 10,
// --profile <dir> (the app under `--cpu-prof`, its profile written there when it stops).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServerProcess } from '../../tests/support/processes.js';
import { BUILT_SERVER, ensureBuild, serverNodeFlags } from '../ensure-build.js';
import { cpuMsOf, freshSite, livePagesDuring, livePagesTable, rssOf, signInWriters, writeStreams } from './live.js';

const root = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    images: { type: 'string', default: '2000' },
    blogs: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    profile: { type: 'string' },
  },
});
const posts = Number(args.posts);
const images = Number(args.images);
const say = (line) => process.stderr.write(`${line}\n`);

async function startImageHost() {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'image-host.js')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`the image host exited (${code})`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, stats: async () => (await fetch(`http://127.0.0.1:${port}/stats`)).json() };
}

/** Posts as an old WordPress blog has them: a few paragraphs, a heading, a list, links; every (posts/images)th with a picture. */
async function writeExport(file, imageHost) {
  const { wxr } = await import('../../tests/support/archives/wordpress.ts');
  const every = Math.max(1, Math.floor(posts / images));
  const items = Array.from({ length: posts }, (_, n) => {
    const picture = n % every === 0 && n / every < images ? `<p><img src="${imageHost}/img/${n / every}.jpg" alt="Photo ${n}" width="1200" height="800" /></p>\n` : '';
    const paragraph = (k) => `<p>Evening ${k} of post ${n}: the <strong>harbour</strong> lights came on one by one, and we walked along the <a href="https://old-blog.example.com/2019/05/walk-${k}/">old wall</a> until the <em>last ferry</em> left.</p>`;
    return {
      id: 1000 + n,
      title: `Post number ${n}`,
      slug: `post-${n}`,
      date: new Date(Date.UTC(2012, 0, 1) + n * 3_600_000 * 7).toISOString().replace('T', ' ').slice(0, 19),
      content: `${paragraph(1)}\n<h2>What we saw</h2>\n${picture}<ul><li>amber sky</li><li>gulls</li><li>a lantern</li></ul>\n${paragraph(2)}\n${paragraph(3)}`,
      categories: [n % 2 ? 'Travel' : 'Life'],
      tags: n % 3 ? [] : ['harbour', `walk-${n % 11}`],
    };
  });
  writeFileSync(file, wxr(items));
}

async function main() {
  ensureBuild(say);
  say(`uptime: load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const imageHost = await startImageHost();
  let app = null;
  let site = null;
  process.once('exit', () => {
    app?.child.kill('SIGKILL');
    imageHost.child.kill('SIGKILL');
  });
  try {
    say(`seeding ${args.blogs} blogs; writing an export of ${posts} posts and ${images} pictures…`);
    site = await freshSite({ blogs: Number(args.blogs), env: { IMAGE_FETCH_ALLOW_LOOPBACK: 'on', MAX_UPLOAD_MB: '100' } });
    const file = path.join(site.dataDir, 'bench-export.xml');
    await writeExport(file, imageHost.url);
    const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
    app = await startServerProcess({ env: site.env, nodeFlags: [...serverNodeFlags(), ...profile], waitPath: '/', accept: (res) => res.status === 200, intervalMs: 5, quiet: true });
    const url = app.url;
    const sessions = await signInWriters(url);
    // The importer is the last bench writer: the live activity's likes and comments come from all of them.
    const importer = sessions.at(-1);
    const { openDeps } = await import(BUILT_SERVER);
    const deps = await openDeps({ ...process.env, ...site.env, LOG_LEVEL: 'warn' });
    const runOf = (id) => deps.database.db.selectFrom('import_runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const until = async (id, done) => {
      for (;;) {
        const run = await runOf(id);
        if (run.status === 'failed') throw new Error(`the import failed: ${run.report}`);
        if (done(run)) return run;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const form = (fields) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      return fetch(`${url}/profile/import`, { method: 'POST', headers: { cookie: importer.cookie, origin: url }, body, redirect: 'manual' });
    };

    // The scan: upload, then read the archive; nothing written yet.
    const scanStarted = Date.now();
    const uploaded = await form({ intent: 'upload', archive: new File([readFileSync(file)], 'old-blog.WordPress.2026-11-20.xml', { type: 'text/xml' }) });
    const runId = new URL(uploaded.headers.get('location') ?? '', url).searchParams.get('run');
    if (uploaded.status !== 302 || !runId) throw new Error(`the upload was refused: ${uploaded.status} ${await uploaded.text()}`);
    const review = await until(runId, (run) => run.status === 'review');
    const scanMs = Date.now() - scanStarted;
    const { scan } = JSON.parse(review.report);
    say(`  scanned ${scan.posts} posts in ${scanMs} ms`);

    const write = writeStreams({ blogs: site.seeded.blogs, users: site.seeded.users, sessions, pairsUsed: [0, 0, 0] });
    const cpuBefore = cpuMsOf(app.pid);
    let startedAt = 0;
    const live = await livePagesDuring({
      url,
      pid: app.pid,
      publicBlogIds: site.seeded.publicBlogIds,
      write,
      connections: Number(args.connections),
      duration: Number(args.duration),
      start: async () => {
        startedAt = Date.now();
        const mapping = Object.fromEntries(Object.entries(scan.categoryMapping).map(([from, to]) => [`category:${from}`, to]));
        const confirmed = await form({ intent: 'confirm', runId, ...mapping });
        if (confirmed.status !== 302) throw new Error(`the mapping was refused: ${confirmed.status} ${await confirmed.text()}`);
        await until(runId, (run) => run.status === 'running');
        let finished = false;
        const done = until(runId, (run) => run.status === 'done').then((run) => {
          finished = true;
          return { run, ms: Date.now() - startedAt };
        });
        return { running: () => !finished, done };
      },
    });
    const { run, ms } = live.result;
    const report = JSON.parse(run.report).report;
    const importCpuMs = cpuMsOf(app.pid) - cpuBefore;
    const peakRssMb = Math.round(rssOf(app.pid, 'VmHWM'));
    const served = (await imageHost.stats()).served;
    await deps.database.close();
    const pages = livePagesTable(live, 'the import');
    const items = report.posts.imported + report.images.stored;
    const lines = [
      `Import while read — ${site.dialect}, ${args.blogs} seeded blogs, a WordPress export of ${posts} posts and ${images} pictures (${(statSync(file).size / 1048576).toFixed(1)} MB), Node ${process.version}, load ${loadavg()[0].toFixed(2)}`,
      '',
      '| phase | time | posts | pictures stored (fetched) | items/s | app CPU ms | app peak RSS MB |',
      '|---|---:|---:|---:|---:|---:|---:|',
      `| scan (upload, read, nothing written) | ${(scanMs / 1000).toFixed(1)} s | ${scan.posts} | | | | |`,
      `| import (confirm → done), with the page bench's three runs meanwhile | ${(ms / 1000).toFixed(1)} s | ${report.posts.imported} | ${report.images.stored} (${served}) | ${Math.round(items / (ms / 1000))} | ${importCpuMs} (pages included) | ${peakRssMb} |`,
      '',
      `skipped: ${report.skipped.length}${report.skipped.length ? ` (first: ${report.skipped[0].item}: ${report.skipped[0].reason})` : ''}; images missing: ${report.images.missing}`,
      '',
      ...pages.lines,
    ].join('\n');
    console.log(lines);
    const results = path.join(root, 'bench/results');
    mkdirSync(results, { recursive: true });
    writeFileSync(path.join(results, `import-live-${site.dialect}.md`), `${lines}\n`);
  } finally {
    if (app) await app.stop();
    imageHost.child.kill('SIGTERM');
    await site?.remove();
  }
}

await main();
