// `node scripts/bench/export.js [--blogs 1000] [--keep DIR]`: what the site export costs
// (docs/decisions/074). Seeds a fresh DATA_DIR (npm run bench:seed's data set) and gives every post
// its own stored photo (a noisy 800×500 WebP, so its bytes are as incompressible as a photo's)
// and every fifth post a picture in its body; then exports the whole site, ghost.json included, in
// a fresh process, and prints the time, the zip's size and the process's peak RSS (before the
// export began and at its end). --keep DIR seeds DIR once and keeps it, so a later run exports the
// same site again. With DATABASE_URL set it seeds that (empty) PostgreSQL database instead of SQLite.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { seed } from './seed.js';

const root = path.resolve(import.meta.dirname, '../..');
const build = path.join(root, 'build/server/index.js');
const { values } = parseArgs({ options: { blogs: { type: 'string', default: '1000' }, keep: { type: 'string' } } });
const blogs = Number(values.blogs);
const dataDir = values.keep ? path.resolve(values.keep) : mkdtempSync(path.join(tmpdir(), 'afterglow-export-bench-'));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };

async function seedWithPhotos() {
  mkdirSync(dataDir, { recursive: true });
  await seed({ blogs, env, log: false });
  const { openDeps } = await import(build);
  const deps = await openDeps(env);
  const { db } = deps.database;
  const uploads = path.join(dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  const rows = await db.selectFrom('blogs').select(['id', 'long_description']).orderBy('id').execute();
  const urls = [];
  let imageBytes = 0;
  for (const _ of rows) {
    const bytes = await sharp(randomBytes(800 * 500 * 3), { raw: { width: 800, height: 500, channels: 3 } }).webp({ quality: 80, effort: 0 }).toBuffer();
    const name = `${randomUUID()}-1600.webp`;
    writeFileSync(path.join(uploads, name), bytes);
    imageBytes += bytes.length;
    urls.push(`/uploads/${name}`);
  }
  for (const [i, row] of rows.entries()) {
    const body = i % 5 === 0 ? `${row.long_description}\n\n![Another evening](${urls[(i + 1) % urls.length]})` : row.long_description;
    await db.updateTable('blogs').set({ photo: urls[i], long_description: body }).where('id', '=', row.id).execute();
  }
  await deps.database.close();
  console.log(`seeded ${rows.length} posts with ${urls.length} photos (${(imageBytes / 1048576).toFixed(0)} MB)`);
}

try {
  if (!(values.keep && existsSync(path.join(dataDir, 'uploads')))) await seedWithPhotos();
  const out = path.join(dataDir, 'site-export.zip');
  const child = `
    const server = await import(${JSON.stringify(build)});
    const deps = await server.openDeps();
    const before = process.resourceUsage().maxRSS;
    const started = performance.now();
    const summary = await server.exportArchive(deps, { site: true }, ${JSON.stringify(out)});
    const ms = performance.now() - started;
    await deps.database.close();
    console.log(JSON.stringify({ ...summary, ms: Math.round(ms), peakRssBeforeMB: Math.round(before / 1024), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
    process.exit(0);`;
  const run = spawnSync(process.execPath, ['--max-semi-space-size=2', '--max-old-space-size=128', '--input-type=module', '-e', child], { env, encoding: 'utf8', cwd: root });
  if (run.status !== 0) throw new Error(run.stderr);
  const r = JSON.parse(run.stdout.trim().split('\n').at(-1));
  console.log(`site export: ${r.posts} posts, ${r.images} images, ${r.comments} comments -> ${(r.bytes / 1048576).toFixed(1)} MB zip in ${(r.ms / 1000).toFixed(1)} s (${Math.round(r.posts / (r.ms / 1000))} posts/s); peak RSS ${r.peakRssMB} MB (${r.peakRssBeforeMB} MB before the export began)`);
} finally {
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
}
