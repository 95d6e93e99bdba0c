// Where a server's resident memory goes, sampled from inside it (docs/benchmarks.md, decisions 076
// and 087). `npm run bench` loads it into the server it measures (`--import`, with
// `AFTERGLOW_MEMORY_PROBE=<file>`); by hand: `AFTERGLOW_MEMORY_PROBE=<file>
// NODE_OPTIONS=--import=./scripts/bench/memory-probe.js npm run bench`. In each server process
// (`server.js`), every 100 ms, it keeps the largest value seen of each part and writes them to
// <file>.<pid> once a second:
// - rssFile: pages of the node binary and libraries (file-backed, shared between processes);
// - rssAnon: the process's own memory, of which the V8 heap (heapTotal), the Buffers and
//   ArrayBuffers V8 is told of (external), and the rest: native memory no one reports to V8
//   (SQLite's page cache and statements, glibc's arenas and what they keep after a free, libuv);
// - at the peak of the resident memory (VmRSS, what VmHWM reports), the same parts in that one
//   sample (the maxima need not coincide).
// The bench process imports the helpers below; it samples nothing itself (it is not server.js).
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.AFTERGLOW_MEMORY_PROBE;
if (file && /server\.js$/.test(process.argv[1] ?? '')) {
  const max = {};
  let peak = null;
  const kb = (status, field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0) / 1024;
  const sample = () => {
    const status = readFileSync('/proc/self/status', 'utf8');
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size / 2 ** 20]));
    const now = {
      rss: kb(status, 'VmRSS'),
      rssAnon: kb(status, 'RssAnon'),
      rssFile: kb(status, 'RssFile'),
      heapTotal: usage.heapTotal / 2 ** 20,
      heapUsed: usage.heapUsed / 2 ** 20,
      oldSpaceUsed: spaces.old_space ?? 0,
      codeSpaceUsed: spaces.code_space ?? 0,
      largeObjectSpaceUsed: (spaces.large_object_space ?? 0) + (spaces.code_large_object_space ?? 0),
      newSpaceUsed: (spaces.new_space ?? 0) + (spaces.new_large_object_space ?? 0),
      external: usage.external / 2 ** 20,
      arrayBuffers: usage.arrayBuffers / 2 ** 20,
    };
    now.native = now.rssAnon - now.heapTotal - now.external;
    for (const [key, value] of Object.entries(now)) max[key] = Math.max(max[key] ?? 0, value);
    if (!peak || now.rss >= peak.rss) peak = now;
  };
  const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  setInterval(sample, 100).unref();
  setInterval(() => writeFileSync(`${file}.${process.pid}`, JSON.stringify({ max: round(max), atPeak: round(peak ?? {}) })), 1000).unref();
}

/** What the probe wrote for the server `pid` (null when it wrote nothing). */
export function readProbe(prefix, pid) {
  try {
    return JSON.parse(readFileSync(`${prefix}.${pid}`, 'utf8'));
  } catch {
    return null;
  }
}

/** The bytes each bounded cache holds by its own count, from the server's /metrics (`afterglow_memory_held_bytes`). */
export async function heldBytesOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^afterglow_memory_held_bytes\{part="([^"]+)"\} (\S+)$/gm)].map(([, part, bytes]) => [part, Number(bytes)]));
}

/** The bench's table of the server's memory by part at its peak, with the caches' own counts and bounds (MB). */
export function memoryTable({ atPeak: p, max }, held, { pageCacheMb, renderMemoMb }) {
  const mb = (bytes) => Math.round((bytes ?? 0) / 2 ** 20);
  const r = (x) => Math.round(x ?? 0);
  const caches = mb(held.page_cache) + mb(held.render_memo);
  return [
    '| part | at the peak | largest seen | bound, or what it is |',
    '|---|---:|---:|---|',
    `| resident (VmRSS) | **${r(p.rss)}** | ${r(max.rss)} | binary + heap + Buffers + native, below |`,
    `| node binary and libraries (file-backed, shared) | ${r(p.rssFile)} | ${r(max.rssFile)} | the binary's pages in use |`,
    `| V8 heap (heapTotal) | ${r(p.heapTotal)} | ${r(max.heapTotal)} | used ${r(p.heapUsed)}: old space ${r(p.oldSpaceUsed)}, code ${r(p.codeSpaceUsed)}, large objects ${r(p.largeObjectSpaceUsed)} (the modules' sources), new ${r(p.newSpaceUsed)}; \`--max-old-space-size\` caps the old space |`,
    `| · of which the Markdown cache's strings (its own count, UTF-16) | ${mb(held.markdown_html)} | | 8 MB |`,
    `| Buffers V8 is told of (external) | ${r(p.external)} | ${r(max.external)} | |`,
    `| · page cache (its own count) | ${mb(held.page_cache)} | | \`PAGE_CACHE_MB\` ${pageCacheMb} |`,
    `| · render memo (its own count) | ${mb(held.render_memo)} | | \`RENDER_MEMO_MB\` ${renderMemoMb} |`,
    `| · the rest | ${r(p.external - caches)} | | the viewer memo's templates the render memo no longer holds, answers being sent, Buffers dead but not yet collected |`,
    `| native memory (the process's own − heap − external) | ${r(p.native)} | ${r(max.native)} | SQLite's page cache (\`cache_size\`), glibc's arenas and what they keep after a free, threads, V8's compiler |`,
  ].join('\n');
}
