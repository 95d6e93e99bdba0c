// Where a server's resident memory goes, sampled from inside it (docs/benchmarks.md, decision 076).
// Loaded with `NODE_OPTIONS=--import=./scripts/bench/memory-probe.js` and
// `AFTERGLOW_MEMORY_PROBE=<file>`: in each server process (`server.js`), every 100 ms, it keeps
// the largest value seen of each part and writes them to <file>.<pid> once a second:
// - rssFile: pages of the node binary and libraries (file-backed, shared between processes);
// - rssAnon: the process's own memory, of which the V8 heap (heapTotal), the Buffers and
//   ArrayBuffers V8 is told of (external), and the rest: native memory no one reports to V8
//   (SQLite's page cache and statements, glibc's arenas and what they keep after a free, libuv);
// - at the peak of rssAnon, the same parts in that one sample (the maxima need not coincide).
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
      external: usage.external / 2 ** 20,
      arrayBuffers: usage.arrayBuffers / 2 ** 20,
    };
    now.native = now.rssAnon - now.heapTotal - now.external;
    for (const [key, value] of Object.entries(now)) max[key] = Math.max(max[key] ?? 0, value);
    if (!peak || now.rssAnon >= peak.rssAnon) peak = now;
  };
  const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  setInterval(sample, 100).unref();
  setInterval(() => writeFileSync(`${file}.${process.pid}`, JSON.stringify({ max: round(max), atPeak: round(peak ?? {}) })), 1000).unref();
}
