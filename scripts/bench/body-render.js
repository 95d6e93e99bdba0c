// What highlighting costs the render pool (docs/decisions/063): the renderer the pool's workers run,
// loaded in a fresh process as a worker loads it, then a post with prose, code in four languages, a
// captioned picture, a table and a video link rendered again and again. Prints the median and p90
// render time and the heap the renderer holds once loaded and warm.
//   node --expose-gc scripts/bench/body-render.js [markdown-render.ts to measure] [renders]
// Give another checkout's renderer as the first argument to compare before and after.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const file = resolve(process.argv[2] ?? 'app/features/blogs/markdown-render.ts');
const renders = Number(process.argv[3] ?? 300);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const CODE = {
  ts: 'export async function load({ params }: Route.LoaderArgs) {\n  const blog = await blogs.find(params.id); // one query\n  if (!blog) throw new Response("Not found", { status: 404 });\n  return { blog, html: await renderMarkdown(blog.body) };\n}\n',
  python: 'import json\n\n@dataclass\nclass Post:\n    title: str\n    words: int = 0\n\n    def summary(self) -> str:\n        return f"{self.title} ({self.words} words)"  # shown on cards\n',
  bash: 'for f in posts/*.md; do\n  wc -w "$f" | awk \'{ print $1 }\' >> counts.txt\ndone\nnpm run build && echo "built ${#}"\n',
  json: '{\n  "title": "Dusk",\n  "tags": ["light", "evening"],\n  "draft": false,\n  "words": 1200\n}\n',
};
const PROSE = 'The light went amber over the harbour, and for a quarter of an hour every window on the hill held a small sun. *Nobody* on the quay looked up; they had seen it before, and the [tide tables](https://example.org/tides) said it would come again tomorrow.\n\n';
const body = [
  '# An evening on the quay\n\n', PROSE.repeat(3),
  ...Object.entries(CODE).flatMap(([lang, code]) => [PROSE, `\`\`\`${lang}\n${code.repeat(3)}\`\`\`\n\n`]),
  '![The harbour at dusk](/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp#1600x1067 "The harbour, ten minutes after sunset")\n\n',
  '| hour | light |\n|---|:-:|\n| 19:00 | amber |\n| 19:15 | rose |\n\n',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ\n\n', PROSE.repeat(2),
].join('');
const task = { markdown: body, bases: ['/uploads/'], rel: 'ugc noopener' };

const heap = () => {
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const before = heap();
const { renderSanitised } = await import(pathToFileURL(file).href);
for (let i = 0; i < 30; i++) renderSanitised(task);
const held = heap() - before;
const times = [];
for (let i = 0; i < renders; i++) {
  const started = performance.now();
  renderSanitised(task);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3);
console.log(JSON.stringify({ renderer: process.argv[2] ? file : 'this checkout', bodyChars: body.length, renders, medianMs: Number(at(0.5)), p90Ms: Number(at(0.9)), heapHeldMb: Number((held / 1048576).toFixed(2)), rssMb: Number((process.memoryUsage().rss / 1048576).toFixed(1)) }));
