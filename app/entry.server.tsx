import { Writable } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from 'react-router';
import { ServerRouter } from 'react-router';
import { isClientAbort, isDatabaseUnavailable } from '~/db/errors.server';
import { NonceProvider } from '~/lib/render/nonce';
import { lowerScriptPriority, lowerScriptPriorityStream } from '~/lib/render/script-priority.server';
import { fillTemplate, makeTemplate, type PageTemplate } from '~/lib/render/viewer-slots.server';

export const streamTimeout = 5_000;

/**
 * A loader or action that failed because the database was away (a restart, an exhausted pool)
 * marks its request, so the server answers 503 rather than 500 even when the database is back
 * by the time the error page is sent (server/http/http.server.ts).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const load = context as unknown as AppLoadContext;
  if (isClientAbort(error)) {
    load.failure.clientAborted = true;
    load.service.log.info({ reqId: load.requestId }, 'request body cut off by the client');
    return;
  }
  if (isDatabaseUnavailable(error)) {
    load.failure.databaseUnavailable = true;
    load.service.log.warn({ err: error, reqId: load.requestId }, 'database unavailable during a page');
    return;
  }
  load.service.log.error({ err: error, reqId: load.requestId }, 'page error');
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  if (loadContext.slots.used) return renderSignedIn(request, responseStatusCode, responseHeaders, routerContext, loadContext);
  const userAgent = request.headers.get('user-agent');
  // Crawlers and no-JS clients get the complete document; browsers get the shell early — when
  // there is something to wait for. A page whose loaders deferred nothing is finished as soon
  // as its shell is (the rest is React Router's data script, ready microtasks later), so it is
  // collected into one buffer and sent whole: no Node stream, no Web stream for Hono to read
  // back chunk by chunk, a Content-Length instead of chunked encoding (docs/decisions/039).
  const waitForAll = (userAgent && isbot(userAgent)) || routerContext.isSpaMode || !defersData(routerContext);
  if (!waitForAll) return renderStreamed(request, responseStatusCode, responseHeaders, routerContext, loadContext);
  return renderWhole(request, responseStatusCode, routerContext, loadContext).then(({ status, bytes }) => wholeResponse(bytes, status, responseHeaders));
}

/**
 * A signed-in document: its render holds placeholders for the viewer's strings, filled in here
 * (app/lib/render/viewer-slots.server.ts). A render of the same URL and loader data is kept and filled
 * again for the next viewer instead of rendered anew (app/lib/render/render-memo.server.ts, decision 043).
 * Always whole: the placeholders are filled in the finished page.
 */
async function renderSignedIn(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext, loadContext: AppLoadContext): Promise<Response> {
  const { slots, nonce } = loadContext;
  const values = slots.valuesWith(nonce);
  const memo = import.meta.env.DEV || defersData(routerContext) ? null : loadContext.deps.renderMemo;
  const key = memo?.keyOf(request, responseStatusCode, responseHeaders, routerContext) ?? null;
  const kept = key === null ? undefined : memo?.get(key);
  if (kept) {
    // React Router's data script stream is left unread: its encoder finishes on its own (and
    // clears its timer); cancelling it would only make the encoder's last write throw.
    responseHeaders.set('X-Render', 'kept');
    const response = wholeResponse(fillTemplate(kept, values), responseStatusCode, responseHeaders);
    keepForViewer(loadContext, key!, kept, values, responseStatusCode, responseHeaders);
    return response;
  }
  const { status, bytes } = await renderWhole(request, responseStatusCode, routerContext, loadContext);
  const template = makeTemplate(bytes.toString('utf8'), values.length - 1, nonce);
  const keep = key !== null && status === responseStatusCode;
  if (keep) memo?.set(key, template);
  if (key !== null) responseHeaders.set('X-Render', 'new');
  const response = wholeResponse(fillTemplate(template, values), status, responseHeaders);
  if (keep) keepForViewer(loadContext, key, template, values, status, responseHeaders);
  return response;
}

/**
 * A keepable page's answer, for the viewer memo to send again to this viewer until something it
 * shows may have changed (server/http/middleware/viewer-memo.server.ts, decision 059).
 */
function keepForViewer(loadContext: AppLoadContext, memoKey: string, template: PageTemplate, values: string[], status: number, headers: Headers) {
  if (!loadContext.viewerCapture) return;
  loadContext.viewerCapture.answer = {
    memoKey,
    status,
    headers: [...headers].filter(([name]) => name !== 'content-length'),
    template,
    values: values.slice(0, -1),
    requestIdSlot: values.indexOf(loadContext.requestId),
  };
}

function wholeResponse(bytes: Buffer, status: number, headers: Headers): Response {
  headers.set('Content-Type', 'text/html; charset=utf-8');
  // Told, so the compression middleware can compress the whole body in one call too.
  headers.set('Content-Length', String(bytes.length));
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers, status });
}

const app = (loadContext: AppLoadContext, routerContext: EntryContext, request: Request) => (
  <NonceProvider value={loadContext.nonce}>
    <ServerRouter context={routerContext} url={request.url} nonce={loadContext.nonce} />
  </NonceProvider>
);

/** The whole page in one buffer, once everything is rendered; a render error makes it a 500. */
function renderWhole(request: Request, responseStatusCode: number, routerContext: EntryContext, loadContext: AppLoadContext): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    let status = responseStatusCode;
    // Cleared when the render completes: a pending timer would keep the whole render alive.
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(app(loadContext, routerContext, request), {
      nonce: loadContext.nonce,
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        clearTimeout(timer);
        const chunks: Buffer[] = [];
        pipe(
          new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              // The page's script preloads go at low priority, behind what its first paint needs (decision 042).
              resolve({ status, bytes: lowerScriptPriority(Buffer.concat(chunks)) });
              callback();
            },
          }),
        );
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        loadContext.service.log.error({ err: error }, 'render error');
      },
    });
  });
}

/** The shell as soon as it is ready, the deferred data after it. */
function renderStreamed(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext, loadContext: AppLoadContext): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(app(loadContext, routerContext, request), {
      nonce: loadContext.nonce,
      // React sends a finished Suspense boundary later in the stream, to be put in place by a
      // script, once the page passes this many bytes; without JavaScript it would stay missing.
      // The home page's deferred sections are such boundaries (docs/decisions/036): every
      // finished one goes out in place.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        shellRendered = true;
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        // The page's script preloads go at low priority, behind what its first paint needs (decision 042).
        const body = lowerScriptPriorityStream();
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onAllReady() {
        clearTimeout(timer);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) loadContext.service.log.error({ err: error }, 'render error');
      },
    });
  });
}

/** Whether a loader of this request returned a promise for React Router to stream later. */
function defersData(context: EntryContext): boolean {
  for (const data of Object.values(context.staticHandlerContext.loaderData ?? {})) {
    if (data === null || typeof data !== 'object') continue;
    for (const value of Object.values(data as Record<string, unknown>)) if (value instanceof Promise) return true;
  }
  return false;
}
