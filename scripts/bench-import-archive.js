// `npm run bench:import -- [MB] [--text] [--format wordpress|ghost] [--whole]`: writes a Jekyll site zip
// of about MB megabytes (2,000 posts and 512 KB pictures that do not compress; with --text, no
// pictures but as many posts of about 10 KB of text as make MB, stored uncompressed so the zip is
// that large too; with --format wordpress, a WordPress export (.xml) of as many such posts, every
// 7th with a featured image whose attachment comes at the end of the file; with --format ghost, a
// Ghost JSON export of as many, its posts first and their tags and authors after, as Ghost writes
// it (each post's tags and author then resolved once the file is read); the guards take a file
// of at most 200 MB, some 170 MB of text), then opens it with the
// importer's guards and reads it as the scan does (posts handed on in chunks, each made into its
// staged row's JSON and dropped; a WordPress post waiting for its attachment, a Ghost post for its tags, is written to a file
// standing for the staging table and read back once the export is read; with --whole, the whole
// bundle first, as before decision 095), reads every picture once, as the writer does, and prints
// the time and the peak resident memory (docs/decisions/072, 095, docs/benchmarks.md).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createJiti } from 'jiti';
import yazl from 'yazl';

// The reading runs in a process of its own, so the peak is the importer's, not the generator's.
if (process.argv[2] === '--read') {
  await readArchive(process.argv[3]);
  process.exit(0);
}

const formatAt = process.argv.indexOf('--format');
const format = formatAt === -1 ? 'jekyll' : process.argv[formatAt + 1];
if (!['jekyll', 'wordpress', 'ghost'].includes(format)) throw new Error(`--format takes jekyll, wordpress or ghost, not ${format}`);
const text = process.argv.includes('--text') || format !== 'jekyll';
const megabytes = Number(process.argv.slice(2).find((arg, n, args) => !arg.startsWith('--') && args[n - 1] !== '--format') ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), 'import-bench-'));
const file = path.join(dir, { wordpress: 'export.xml', ghost: 'ghost.json' }[format] ?? 'site.zip');
const zip = new yazl.ZipFile();
// Text-heavy (docs/decisions/095): words drawn at random from a small vocabulary, in paragraphs.
const POST_BYTES = 10 * 1024;
const textPosts = Math.ceil((megabytes * 1024 * 1024) / POST_BYTES);
const paragraphsOfText = () => {
  const words = 'the a light over harbour evening long road letters garden winter morning quiet house river stone window of and to in we she they wrote walked remembered'.split(' ');
  const paragraphs = [];
  for (let size = 0; size < POST_BYTES; ) {
    const sentence = Array.from({ length: 60 }, () => words[Math.floor(Math.random() * words.length)]).join(' ');
    paragraphs.push(`${sentence[0].toUpperCase()}${sentence.slice(1)}.`);
    size += sentence.length + 3;
  }
  return paragraphs;
};
if (format === 'wordpress') {
  const { wxr, itemXml, WXR_SITE } = await createJiti(import.meta.url).import('../tests/support/archives/wordpress.ts');
  const [head, foot] = wxr([]).split('\n</channel>');
  const out = createWriteStream(file);
  const write = (chunk) => (out.write(chunk) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
  await write(head);
  const date = '2018-03-01 10:00:00';
  for (let i = 0; i < textPosts; i++) {
    const item = { id: 1000 + i * 2, title: `Post ${i}`, slug: `post-${i}`, date, content: paragraphsOfText().map((p) => `<p>${p}</p>`).join('\n'), categories: ['Life'], tags: ['a', 'b'] };
    if (i % 7 === 0) item.meta = { _thumbnail_id: String(1001 + i * 2) };
    await write(`${itemXml(item)}\n`);
  }
  // The attachments last: every featured image waits for the end of the file.
  for (let i = 0; i < textPosts; i += 7) await write(`${itemXml({ id: 1001 + i * 2, type: 'attachment', status: 'inherit', title: `cover ${i}`, slug: `cover-${i}`, date, parent: 1000 + i * 2, attachmentUrl: `${WXR_SITE}/wp-content/uploads/cover-${i}.jpg` })}\n`);
  await write(`</channel>${foot}`);
  await new Promise((resolve) => out.end(resolve));
} else if (format === 'ghost') {
  const out = createWriteStream(file);
  const write = (chunk) => (out.write(chunk) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
  await write('{"db":[{"meta":{"version":"5.80.0"},"data":{"posts":[');
  const date = '2018-03-01T10:00:00.000Z';
  for (let i = 0; i < textPosts; i++) {
    const html = paragraphsOfText().map((p) => `<p>${p}</p>`).join('\n');
    await write(`${i ? ',' : ''}${JSON.stringify({ id: `post-${i}`, title: `Post ${i}`, slug: `post-${i}`, html, status: 'published', visibility: 'public', published_at: date, updated_at: date })}`);
  }
  // The tables naming each post's tags and author after the posts, as Ghost writes them.
  await write('],"tags":[{"id":"tag-a","name":"Life"},{"id":"tag-b","name":"Letters"}],"posts_tags":[');
  for (let i = 0; i < textPosts; i++) await write(`${i ? ',' : ''}{"post_id":"post-${i}","tag_id":"tag-a","sort_order":0},{"post_id":"post-${i}","tag_id":"tag-b","sort_order":1}`);
  await write('],"users":[{"id":"user-1","name":"Gwen Ghost"}],"posts_authors":[');
  for (let i = 0; i < textPosts; i++) await write(`${i ? ',' : ''}{"post_id":"post-${i}","author_id":"user-1","sort_order":0}`);
  await write('],"settings":[{"key":"title","value":"The Bench Gazette"}]}}]}');
  await new Promise((resolve) => out.end(resolve));
} else if (text) {
  for (let i = 0; i < textPosts; i++) {
    const paragraphs = paragraphsOfText();
    const body = `---\ntitle: "Post ${i}"\ndate: 2018-03-01 10:00:00 +0000\ntags: [a, b]\n---\n${paragraphs.join('\n\n')}\n`;
    zip.addBuffer(Buffer.from(body), `site/_posts/2018-03-01-post-${i}.md`, { compress: false });
  }
} else {
  const pictures = Math.ceil((megabytes * 1024 * 1024) / (512 * 1024));
  for (let i = 0; i < pictures; i++) zip.addBuffer(randomBytes(512 * 1024), `site/assets/img/p${i}.jpg`, { compress: false });
  for (let i = 0; i < 2000; i++) {
    const body = `---\ntitle: "Post ${i}"\ndate: 2018-03-01 10:00:00 +0000\ntags: [a, b]\n---\n${'Some words of the post. '.repeat(100)}\n\n![p](/assets/img/p${i % pictures}.jpg)\n`;
    zip.addBuffer(Buffer.from(body), `site/_posts/2018-03-01-post-${i}.md`);
  }
}
zip.end();
if (format === 'jekyll') await new Promise((resolve) => zip.outputStream.pipe(createWriteStream(file)).on('close', resolve));
console.log(`archive ${(statSync(file).size / 1048576).toFixed(0)} MB written`);
execFileSync(process.execPath, [import.meta.filename, '--read', file, ...process.argv.filter((arg) => arg === '--whole')], { stdio: 'inherit' });
rmSync(dir, { recursive: true, force: true });

async function readArchive(file) {
const jiti = createJiti(import.meta.url);
const { openArchive } = await jiti.import('../app/features/imports/archive.server.ts');
const { readBundle } = await jiti.import('../app/features/imports/imports-readers.server.ts');
const baseline = process.memoryUsage().rss;
// Sampled after every file read (a forked child's maxRSS starts from its parent's, so it is not used).
let peak = baseline;
// …and every 50 ms while the posts are read (a text-heavy archive has no pictures to sample after).
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const started = performance.now();
const archive = await openArchive(file);
let bytes = 0;
let posts = 0;
let markdown = 0;
let staged = 0;
const seen = new Set();
// What the scan does with a post (docs/decisions/091, 095): its row's JSON (the database is left
// out), and its pictures read once, as the writer reads them.
const handle = async (post) => {
  posts++;
  markdown += post.markdown.length;
  staged += JSON.stringify(post).length;
  for (const image of post.images) {
    if (image.ref.kind !== 'archive' || seen.has(image.ref.path)) continue;
    seen.add(image.ref.path);
    const body = await archive.read(image.ref.path);
    createHash('sha256').update(body).digest('hex');
    bytes += body.length;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
};
// As the scan reads since decision 095: posts handed on in chunks and dropped; with --whole, the
// bundle whole first, as before it.
const whole = process.argv.includes('--whole');
// The staged rows, standing for the staging table: a post's row is read back to be rewritten.
const rows = { fd: openSync(`${file}.rows`, 'w+'), at: [], end: 0 };
const stage = (post) => {
  const body = Buffer.from(JSON.stringify(post));
  rows.at.push([rows.end, body.length]);
  rows.end += writeSync(rows.fd, body, 0, body.length, rows.end);
};
let rewritten = 0;
const onRewrite = async (indexes, rewrite) => {
  for (const index of indexes) {
    const [at, length] = rows.at[index];
    const body = Buffer.alloc(length);
    readSync(rows.fd, body, 0, length, at);
    JSON.stringify(rewrite(index, JSON.parse(body.toString('utf8'))));
    rewritten++;
  }
};
const bundle = await readBundle(archive, whole ? {} : { onPosts: async (chunk) => { for (const post of chunk) { await handle(post); stage(post); } }, onRewrite });
closeSync(rows.fd);
peak = Math.max(peak, process.memoryUsage().rss);
for (const post of bundle.posts) await handle(post);
await archive.close();
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
if (rewritten) console.log(`${rewritten} posts read back and rewritten once the export was read`);
console.log(`${posts} posts (${(markdown / 1048576).toFixed(0)} MB of Markdown, ${(staged / 1048576).toFixed(0)} MB staged), ${seen.size} pictures (${(bytes / 1048576).toFixed(0)} MB) read in ${seconds.toFixed(1)} s`);
console.log(`resident memory: ${(baseline / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB`);
}
