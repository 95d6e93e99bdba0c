// `npm run bench:import -- [MB]`: writes a Jekyll site zip of about MB megabytes
// (2,000 posts and 512 KB pictures that do not compress), then opens it with the importer's
// guards, reads it into a bundle and reads every picture once, as the writer does, and prints the
// time and the peak resident memory (docs/decisions/072, docs/benchmarks.md).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createJiti } from 'jiti';
import yazl from 'yazl';

// The reading runs in a process of its own, so the peak is the importer's, not the generator's.
if (process.argv[2] === '--read') {
  await readArchive(process.argv[3]);
  process.exit(0);
}

const megabytes = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), 'import-bench-'));
const file = path.join(dir, 'site.zip');
const pictures = Math.ceil((megabytes * 1024 * 1024) / (512 * 1024));
const zip = new yazl.ZipFile();
for (let i = 0; i < pictures; i++) zip.addBuffer(randomBytes(512 * 1024), `site/assets/img/p${i}.jpg`, { compress: false });
for (let i = 0; i < 2000; i++) {
  const body = `---\ntitle: "Post ${i}"\ndate: 2018-03-01 10:00:00 +0000\ntags: [a, b]\n---\n${'Some words of the post. '.repeat(100)}\n\n![p](/assets/img/p${i % pictures}.jpg)\n`;
  zip.addBuffer(Buffer.from(body), `site/_posts/2018-03-01-post-${i}.md`);
}
zip.end();
await new Promise((resolve) => zip.outputStream.pipe(createWriteStream(file)).on('close', resolve));
console.log(`archive ${(statSync(file).size / 1048576).toFixed(0)} MB written`);
execFileSync(process.execPath, [import.meta.filename, '--read', file], { stdio: 'inherit' });
rmSync(dir, { recursive: true, force: true });

async function readArchive(file) {
const jiti = createJiti(import.meta.url);
const { openArchive } = await jiti.import('../app/features/imports/archive.server.ts');
const { readBundle } = await jiti.import('../app/features/imports/imports-readers.server.ts');
const baseline = process.memoryUsage().rss;
// Sampled after every file read (a forked child's maxRSS starts from its parent's, so it is not used).
let peak = baseline;
const started = performance.now();
const archive = await openArchive(file);
const bundle = await readBundle(archive);
let bytes = 0;
const seen = new Set();
for (const post of bundle.posts) {
  for (const image of post.images) {
    if (image.ref.kind !== 'archive' || seen.has(image.ref.path)) continue;
    seen.add(image.ref.path);
    const body = await archive.read(image.ref.path);
    createHash('sha256').update(body).digest('hex');
    bytes += body.length;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
}
await archive.close();
const seconds = (performance.now() - started) / 1000;
console.log(`${bundle.posts.length} posts, ${seen.size} pictures (${(bytes / 1048576).toFixed(0)} MB) read in ${seconds.toFixed(1)} s`);
console.log(`resident memory: ${(baseline / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB`);
}
