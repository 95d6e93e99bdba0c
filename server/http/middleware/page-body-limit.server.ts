import type { MiddlewareHandler } from 'hono';
import { html } from 'hono/html';
import { MESSAGES } from '~/lib/texts/messages';

/** A page form of ours is a few fields of text: 64 KB leaves room to spare (a comment at its limit is well under it). */
export const MAX_PAGE_FORM_BYTES = 64 * 1024;
/** Beside a multipart form's image: the blog form's text, up to 100,000 characters of Markdown in UTF-8. */
const MULTIPART_TEXT_BYTES = 1024 * 1024;

/** Each page form's own failure message, by the first segment of its path. */
const FORM_FAILURES: Record<string, string> = {
  login: MESSAGES.loginErrorText,
  register: MESSAGES.signupErrorTitle,
  blogs: MESSAGES.commentError,
  addblog: MESSAGES.addBlogErrorTitle,
  updateblog: MESSAGES.updateBlogErrorTitle,
  'update-profile': MESSAGES.profileErrorText,
  newsletter: MESSAGES.subscribeErrorText,
  '': MESSAGES.subscribeErrorText,
};

class BodyTooLarge extends Error {}

/**
 * Every page request with a body (form posts, with or without JavaScript) is held to a size
 * before anything parses it (docs/decisions/026): a declared length over the limit is refused unread,
 * and a body that runs past it is cut off as it streams. Multipart forms get the upload limit
 * (MAX_UPLOAD_MB) plus room for their text. Over the limit: 413 with the form's own failure.
 */
export function pageBodyLimit(maxUploadMb: number): MiddlewareHandler {
  const multipartLimit = Math.floor(maxUploadMb * 1024 * 1024) + MULTIPART_TEXT_BYTES;
  return async (c, next) => {
    const request = c.req.raw;
    if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return next();
    const multipart = /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '');
    const limit = multipart ? multipartLimit : MAX_PAGE_FORM_BYTES;
    const refuse = () => tooLarge(c.req.path, limit, request.headers.get('accept') ?? '');
    if (Number(request.headers.get('content-length') ?? 0) > limit) return refuse();

    let seen = 0;
    let tripped = false;
    // Aborted when the limit trips, so the page's error handler knows this is no bug to log.
    const abort = new AbortController();
    request.signal.addEventListener('abort', () => abort.abort(), { once: true });
    const counted = request.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > limit) {
            tripped = true;
            abort.abort();
            controller.error(new BodyTooLarge());
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(request, { body: counted, duplex: 'half', signal: abort.signal } as RequestInit);
    try {
      await next();
    } catch (error) {
      if (!tripped) throw error;
    }
    // Whatever the action made of a body cut short, the answer is the limit's.
    if (tripped) c.res = refuse();
  };
}

function tooLarge(path: string, limit: number, accept: string): Response {
  const failure = FORM_FAILURES[path.split('/')[1]?.replace(/\.data$/, '').toLowerCase() ?? ''] ?? MESSAGES.formFailed;
  const reason = MESSAGES.formTooLarge(limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${limit / 1024} KB`);
  // No `Connection: close`: Node would close the socket the moment the answer is written, with the
  // client's bytes still arriving, and the kernel's reset can reach the client before our answer
  // does. Kept open, the rest is read and dropped for a moment (@hono/node-server's drain, at
  // most 500 ms or 64 MB) and then closed: the client reads the 413 first.
  const headers = { 'Cache-Control': 'no-store' };
  if (!accept.includes('text/html')) return Response.json({ message: `${failure} ${reason}`, code: 'payload_too_large' }, { status: 413, headers });
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${failure}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>${failure}</h1><p>${reason}</p><p><a href="${path}">Back</a></p></body></html>`;
  return new Response(String(page), { status: 413, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
}
