import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|atom\+xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;
const MIN_BYTES = 1024;
/** Bodies up to this size whose length is known are compressed in one call rather than streamed. */
const WHOLE_BODY_BYTES = 1024 * 1024;
/**
 * Bodies up to this size are compressed per request on the main thread, at once: about 0.6 ms for
 * a 65 KB signed-in page in brotli, 2.5 ms at the bound. The same call off the main thread kept
 * its compressor's memory alive across turns, counted by V8 as external memory, and a kept signed-in
 * page cost 5.7 ms of CPU instead of 1.1, mostly in full collections (docs/decisions/096).
 */
const SYNC_BODY_BYTES = 256 * 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Brotli quality and gzip level: a page compressed per request, or once and kept (harder). A kept
 * page is compressed again each time it is rendered again (a like, the counts' age bound): on a
 * live site about 20 pages a second. Brotli 9 took 23 ms for a 65 KB blog page, 37 times quality
 * 5, for 3% fewer bytes; quality 6 takes 0.7 ms for 1.4% fewer (docs/decisions/096).
 */
const EFFORT = { perRequest: { br: 5, gzip: 6 }, kept: { br: 6, gzip: 9 } } as const;
const optionsOf = (bytes: Buffer, encoding: 'br' | 'gzip', effort: keyof typeof EFFORT) =>
  encoding === 'br'
    ? { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: EFFORT[effort].br, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }
    : { level: EFFORT[effort].gzip };

/** A whole body compressed in one call, off the main thread, at the effort its reuse affords. */
export function compressWhole(bytes: Buffer, encoding: 'br' | 'gzip', effort: keyof typeof EFFORT): Promise<Buffer> {
  return encoding === 'br' ? brotli(bytes, optionsOf(bytes, 'br', effort)) : gzip(bytes, optionsOf(bytes, 'gzip', effort));
}

/** Whether a body of this length is compressed per request at once (`compressNow`) rather than off the main thread. */
export const compressesNow = (length: number) => length <= SYNC_BODY_BYTES;

/**
 * A body of at most SYNC_BODY_BYTES compressed on the main thread: for one request, or once for a
 * signed-in reader's kept page, whose every answer sends it (`kept`, docs/decisions/096).
 */
export function compressNow(bytes: Buffer, encoding: 'br' | 'gzip', effort: keyof typeof EFFORT = 'perRequest'): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(bytes, optionsOf(bytes, 'br', effort)) : zlib.gzipSync(bytes, optionsOf(bytes, 'gzip', effort));
}

export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  if (!accept) return null;
  const offered = accept
    .split(',')
    .map((part) => {
      const [name, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { name: name!.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((e) => e.q > 0);
  if (offered.some((e) => e.name === 'br')) return 'br';
  if (offered.some((e) => e.name === 'gzip' || e.name === '*')) return 'gzip';
  return null;
}

/**
 * Whether `compress` compresses an answer of this type, length (null: not known) and status for a
 * client that accepts it (and names Accept-Encoding in its Vary for any client).
 */
export function wouldCompress(type: string, length: number | null, status: number): boolean {
  return COMPRESSIBLE.test(type) && (length === null || length >= MIN_BYTES) && status !== 204 && status !== 304;
}

/**
 * Brotli or gzip for text responses, streamed (Hono's own compress has no brotli on Node 20).
 * Brotli quality 5 keeps the CPU cost of dynamic pages low; static assets are the same bytes
 * every time, so they could be precompressed later without changing this contract.
 */
export function compress(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // Headers and status first: reading `body` turns @hono/node-server's lightweight response
    // into a full one, which costs more than serving a kept page.
    if (res.headers.has('content-encoding') || c.req.method === 'HEAD') return;
    const length = res.headers.get('content-length');
    if (!wouldCompress(res.headers.get('content-type') ?? '', length === null ? null : Number(length), res.status)) return;
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    if (!/accept-encoding/i.test(res.headers.get('vary') ?? '')) res.headers.append('vary', 'Accept-Encoding');
    if (!encoding) return;
    if (length !== null && Number(length) <= WHOLE_BODY_BYTES) {
      // A body of known size (a page rendered whole, docs/decisions/039): one call compresses it
      // and it goes out with its length, without a stream on either side of the compressor.
      const bytes = Buffer.from(await res.arrayBuffer());
      const packed = compressesNow(bytes.length) ? compressNow(bytes, encoding) : await compressWhole(bytes, encoding, 'perRequest');
      const headers = new Headers(res.headers);
      headers.set('content-length', String(packed.length));
      headers.set('content-encoding', encoding);
      c.res = undefined;
      c.res = new Response(packed as Uint8Array<ArrayBuffer>, { status: res.status, headers });
      return;
    }
    if (!res.body) return;
    const stream =
      encoding === 'br'
        ? zlib.createBrotliCompress({
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: EFFORT.perRequest.br },
            flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          })
        : zlib.createGzip({ level: EFFORT.perRequest.gzip, flush: zlib.constants.Z_SYNC_FLUSH });
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).pipe(stream);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.set('content-encoding', encoding);
    // Hono's res setter copies the previous response's headers (Content-Length included) onto
    // the new one unless it is cleared first.
    c.res = undefined;
    c.res = new Response(Readable.toWeb(body) as ReadableStream, { status: res.status, headers });
  };
}
