import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { AppDeps, AppEnv } from '../../context.server';
import { buildOpenApiDocument } from './openapi.server';
import { OPERATIONS } from './operations.server';

const AUTH_LABEL = { none: 'no sign-in', optional: 'sign-in optional', required: 'sign-in required' } as const;

/** GET /api/openapi.json (OpenAPI 3.1) and GET /api/docs, a readable page made from the same document. */
export function docsApi(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  const site = deps.config.SITE_NAME;
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  const getDocument = () => (document ??= buildOpenApiDocument({ siteName: site, serverUrl: deps.config.PUBLIC_URL }));

  api.get('/openapi.json', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(getDocument());
  });

  api.get('/docs', (c) => {
    const doc = getDocument();
    const tags = [...new Set(OPERATIONS.map((op) => op.tag))];
    const section = (tag: string) => html`<section>
      <h2 id="${tag.toLowerCase()}">${tag}</h2>
      ${OPERATIONS.filter((op) => op.tag === tag).map((op) => {
        const spec = (doc.paths[op.path] as Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>)[op.method]!;
        const body = spec.requestBody ? Object.values(spec.requestBody.content)[0]!.schema : undefined;
        return html`<article>
          <h3><span class="method ${op.method}">${op.method.toUpperCase()}</span> <code>${op.path}</code></h3>
          <p>${op.summary}</p>
          <p class="auth">${AUTH_LABEL[op.auth]}</p>
          ${body ? html`<details><summary>Request body</summary><pre>${JSON.stringify(body, null, 2)}</pre></details>` : ''}
          <ul class="responses">
            ${Object.entries(op.responses).map(([status, r]) => html`<li><strong>${status}</strong> ${r.description}${r.list ? ' (a JSON array)' : ''}</li>`)}
          </ul>
        </article>`;
      })}
    </section>`;
    return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${doc.info.title}</title>
    <style>
      ${raw(`body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem 1.25rem;color:#3a2423;background:#fffaf4}
      h1{color:#b93a0e}h2{border-bottom:1px solid #f3dcc7;padding-bottom:.25rem;margin-top:2rem}
      article{border:1px solid #f3dcc7;border-radius:.75rem;padding:.75rem 1rem;margin:1rem 0;background:#fff}
      h3{margin:.25rem 0;font-size:1.05rem}code{font-size:.95rem}.auth{font-size:.9rem;color:#6b4a47}
      .method{display:inline-block;min-width:4.5rem;text-align:center;border-radius:.4rem;padding:0 .4rem;color:#fff;font-size:.85rem}
      .get{background:#1864ab}.post{background:#2b8a3e}.put{background:#9c4a00}.patch{background:#7048a8}.delete{background:#c92a2a}
      pre{background:#fbefe2;padding:.75rem;border-radius:.5rem;overflow:auto;font-size:.8rem}a{color:#b93a0e}`)}
    </style>
  </head>
  <body>
    <h1>${doc.info.title}</h1>
    <p>${doc.info.description}</p>
    <p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
    <nav aria-label="Sections"><ul>${tags.map((t) => html`<li><a href="#${t.toLowerCase()}">${t}</a></li>`)}</ul></nav>
    <main>${tags.map(section)}</main>
  </body>
</html>`);
  });

  return api;
}
