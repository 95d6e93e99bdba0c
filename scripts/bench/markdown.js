// The Markdown part of `npm run bench` (docs/decisions/047): every body of the pathological corpus
// at the 100,000-character limit, previewed one after the other through the running server (its
// render pool, sanitiser and time bound), and the slowest answer.
import { asFormField, pathologicalMarkdown } from '../../tests/support/pathological-markdown.ts';

export const MARKDOWN_LIMIT = 100_000;

export async function worstPathologicalRender(url, cookie) {
  let worst = { name: '', ms: 0 };
  const refused = [];
  const corpus = Object.entries(pathologicalMarkdown(MARKDOWN_LIMIT));
  for (const [name, body] of corpus) {
    const form = new FormData();
    form.append('long_description', asFormField(body, MARKDOWN_LIMIT));
    const started = performance.now();
    const res = await fetch(`${url}/blog-preview`, { method: 'POST', body: form, headers: { cookie, origin: url } });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 200) refused.push(`${name} (${res.status})`);
    if (ms > worst.ms) worst = { name, ms };
  }
  return { bodies: corpus.length, worstMs: Math.round(worst.ms), worstBody: worst.name, refused };
}
