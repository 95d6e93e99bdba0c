// `npm run bench:wxr` (docs/decisions/073): how fast the WordPress reader turns a generated export
// into an import bundle, and its peak memory, each read in a child process of its own so the
// figures are the reader's alone: a 10,000-post WXR (one picture per post, a featured image on
// every 7th, a three-comment thread on every 10th, the odd cases of the test archives), read as a
// file stream; then each hostile file (XXE, billion laughs, 10,000-level nesting), refused.
// Options: --posts n (10000).
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serverNodeFlags } from '../ensure-build.js';

const { values: args } = parseArgs({ options: { posts: { type: 'string', default: '10000' }, read: { type: 'string' } } });

if (args.read) {
  // The child: read one file and print what it took.
  const { readWordpress } = await import('../../app/features/imports/sources/wordpress.server.ts');
  const started = performance.now();
  let result;
  try {
    const bundle = await readWordpress(createReadStream(args.read, { highWaterMark: 256 * 1024 }));
    result = {
      posts: bundle.posts.length,
      images: bundle.posts.reduce((n, p) => n + p.images.length + (p.cover ? 1 : 0), 0),
      comments: bundle.posts.reduce((n, p) => n + p.comments.length, 0),
    };
  } catch (error) {
    result = { refused: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) };
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ ...result, ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
} else {
  const { bulkItems, wxr } = await import('../../tests/support/archives/wordpress.ts');
  const hostile = await import('../../tests/support/archives/hostile.ts');
  const dir = mkdtempSync(path.join(tmpdir(), 'afterglow-wxr-'));
  const run = (file) => {
    // With the server's own memory flags (`npm start`): the import job runs in the server process.
    const child = spawnSync(process.execPath, [...serverNodeFlags(), import.meta.filename, '--read', file], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').at(-1));
  };
  try {
    const count = Number(args.posts);
    const files = {
      [`${count} posts`]: wxr(bulkItems(count).items),
      'XXE': hostile.xxeXml(),
      'billion laughs': hostile.billionLaughsXml(),
      '10,000-level nesting': hostile.deepNestingXml(10_000),
    };
    // The baseline: a child that reads an empty export costs Node, the modules and the converter.
    files['empty export'] = wxr([]);
    console.log(`WordPress reader — Node ${process.version} ${serverNodeFlags().join(' ')}, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
    // CPU time (the whole child: start, modules and the read) moves less with the machine's load than wall time.
    console.log('| file | size | result | wall ms | process CPU ms | posts/s (wall) | peak RSS MB |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const [name, xml] of Object.entries(files)) {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.xml`);
      writeFileSync(file, xml);
      const size = `${(statSync(file).size / 1024 / 1024).toFixed(1)} MB`;
      const r = run(file);
      const what = r.refused ? `refused (${r.refused.split(':')[0]})` : `${r.posts} posts, ${r.images} pictures, ${r.comments} comments`;
      const rate = r.posts ? Math.round(r.posts / (r.ms / 1000)) : '';
      console.log(`| ${name} | ${size} | ${what} | ${r.ms} | ${r.cpuMs} | ${rate} | ${r.peakRssMb} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
