import { Writable } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from 'react-router';
import { ServerRouter } from 'react-router';
import { isDatabaseUnavailable } from '~/db/errors.server';
import { NonceProvider } from '~/lib/nonce';
import { lowerScriptPriority, lowerScriptPriorityStream } from '~/lib/script-priority.server';

export const streamTimeout = 5_000;

/**
 * A loader or action that failed because the database was away (a restart, an exhausted pool)
 * marks its request, so the server answers 503 rather than 500 even when the database is back
 * by the time the error page is sent (server/http.server.ts).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const load = context as unknown as AppLoadContext;
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
) {
  const nonce = loadContext.nonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // Crawlers and no-JS clients get the complete document; browsers get the shell early — when
    // there is something to wait for. A page whose loaders deferred nothing is finished as soon
    // as its shell is (the rest is React Router's data script, ready microtasks later), so it is
    // collected into one buffer and sent whole: no Node stream, no Web stream for Hono to read
    // back chunk by chunk, a Content-Length instead of chunked encoding (docs/decisions/039).
    const waitForAll = (userAgent && isbot(userAgent)) || routerContext.isSpaMode || !defersData(routerContext);
    // Cleared when the render completes: a pending timer would keep the whole render alive.
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const send = () => {
      shellRendered = true;
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      if (!waitForAll) {
        // The page's script preloads go at low priority, behind what its first paint needs (decision 042).
        const body = lowerScriptPriorityStream();
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
        return;
      }
      const chunks: Buffer[] = [];
      pipe(
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk);
            callback();
          },
          final(callback) {
            const bytes = lowerScriptPriority(Buffer.concat(chunks));
            // Told, so the compression middleware can compress the whole body in one call too.
            responseHeaders.set('Content-Length', String(bytes.length));
            resolve(new Response(bytes, { headers: responseHeaders, status: responseStatusCode }));
            callback();
          },
        }),
      );
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // React sends a finished Suspense boundary later in the stream, to be put in place by a
        // script, once the page passes this many bytes; without JavaScript it would stay missing.
        // The home page's deferred sections are such boundaries (docs/decisions/036): every
        // finished one goes out in place.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          if (!waitForAll) send();
        },
        onAllReady() {
          clearTimeout(timer);
          if (waitForAll) send();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.service.log.error({ err: error }, 'render error');
        },
      },
    );
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
