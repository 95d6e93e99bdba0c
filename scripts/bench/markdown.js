// The Markdown part of `npm run bench` (docs/decisions/047): every body of the pathological corpus
// at the 100,000-character limit, previewed one after the other through the running server (its
// render pool, sanitiser and time bound), and the slowest answer.
import { asFormField, pathologicalMarkdown } from '../../tests/support/pathological-markdown.ts';

export const MARKDOWN_LIMIT = 100_000;

export async function worstPathologicalRender(url, cookie) {
  let worst = { name: '', ms: 0 };
  const refused = [];
  const corpus = Object.entries(pathologicalMarkdown(MARKDOWN_LIMIT));
  const preview = (body) => {
    const form = new FormData();
    form.append('long_description', asFormField(body, MARKDOWN_LIMIT));
    return fetch(`${url}/blog-preview`, { method: 'POST', body: form, headers: { cookie, origin: url } });
  };
  // The pool starts on the first body: its thread and modules are not a render's cost.
  await (await preview('A *warm* [start](https://example.org).')).arrayBuffer();
  for (const [name, body] of corpus) {
    const started = performance.now();
    const res = await preview(body);
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 200) refused.push(`${name} (${res.status})`);
    if (ms > worst.ms) worst = { name, ms };
  }
  return { bodies: corpus.length, worstMs: Math.round(worst.ms), worstBody: worst.name, refused };
}
