import { createHash, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { apiSession, type ApiSession } from '../support/auth';
import { instanceEnv, postPublicBlog } from '../support/instances';
import { type RunningServer, startServer } from '../support/server';

/**
 * A signed-in reader's kept page is answered before Hono's chain when its session and versions are
 * known from memory (docs/decisions/086), compressed when the client asks as browsers do
 * (docs/decisions/096). That answer must be the chain's to the byte, but for the request's id in
 * its header, and only ever for the session it was kept for; a write makes the next read the
 * chain's, with what changed. Every answer of a kept page sends the same bytes: no nonce (its
 * policy names the hashes of exactly its inline scripts) and no request id of the client's. The
 * metrics' count of early answers tells which path answered.
 */
describe.each(TEST_DIALECTS)('a signed-in reader’s kept page answered before the chain on %s', (dialect) => {
  let scratch: ScratchDatabase;
  let server: RunningServer;
  let reader: ApiSession;
  let other: ApiSession;
  let blogId = '';

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect);
    server = await startServer(instanceEnv(scratch));
    const tag = randomUUID().slice(0, 8);
    const writer = await apiSession(server.url, { email: `writer-${tag}@example.com`, name: 'Wren Writer' });
    reader = await apiSession(server.url, { email: `reader-${tag}@example.com`, name: 'Rae Reader' });
    other = await apiSession(server.url, { email: `other-${tag}@example.com`, name: 'Otto Other' });
    blogId = await postPublicBlog(server.url, writer);
  });
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  const earlyAnswers = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^afterglow_early_answers_total\{reader="signed-in"\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  };
  /** The blog page's bytes as sent, by node:http: fetch would decompress them unseen. */
  const fetchRaw = (headers: Record<string, string>, path: string) =>
    new Promise<{ status: number; headers: Record<string, string>; bytes: Buffer }>((resolve, reject) => {
      request(`${server.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  const decoders: Record<string, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };
  /**
   * The blog page as `cookie` reads it (uncompressed unless asked; then decoded, `bytes` as sent),
   * and whether it was answered early. A compressed answer's length is checked against the bytes
   * sent and left out of the headers compared.
   */
  const read = async (cookie: string, headers: Record<string, string> = {}, path = `/blogs/${blogId}`) => {
    const before = await earlyAnswers();
    const res = await fetchRaw({ cookie, 'accept-encoding': 'identity', ...headers }, path);
    expect(res.status).toBe(200);
    const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers;
    expect(Number(rest['content-length'])).toBe(res.bytes.length);
    const encoding = rest['content-encoding'];
    if (encoding) delete rest['content-length'];
    const html = (encoding ? decoders[encoding]!(res.bytes) : res.bytes).toString('utf8');
    return { headers: rest, html, bytes: res.bytes, early: (await earlyAnswers()) - before === 1 };
  };
  /** Headers and page but for the answer's request id, which is in its header alone. */
  const withoutIds = ({ headers, html }: { headers: Record<string, string>; html: string }) => {
    const { 'x-request-id': id, ...rest } = headers;
    expect(id).toMatch(/^[\w.-]{8,}$/);
    expect(html).not.toContain(id);
    return { headers: rest, html };
  };
  /** A kept answer carries no nonce, and its policy allows exactly its inline scripts by hash. */
  const expectHashPolicy = ({ headers, html }: { headers: Record<string, string>; html: string }) => {
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).not.toContain("'nonce-");
    expect(html).not.toMatch(/\snonce="/);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
      .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes!))
      .map(([, , text]) => `'sha256-${createHash('sha256').update(text!, 'utf8').digest('base64')}'`);
    expect(scripts.length).toBeGreaterThan(0);
    // 'self' and those hashes, nothing else ('unsafe-inline' or 'strict-dynamic' among them).
    expect(/script-src ([^;]+)/.exec(csp)![1]!.split(' ').sort()).toEqual(["'self'", ...new Set(scripts)].sort());
  };
  const likes = (html: string) => Number(/data-testid="like-count">([\d,]+)</.exec(html)?.[1]?.replace(/,/g, '') ?? Number.NaN);
  const like = (session: ApiSession) =>
    fetch(`${server.url}/api/blogs/liked/${blogId}`, { method: 'PATCH', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body: '{}' });
  /** Read until the page is answered early (a background job's write may empty the memo once). */
  const readEarly = async (cookie: string, headers: Record<string, string> = {}, path?: string) => {
    let page = await read(cookie, headers, path);
    for (let i = 0; i < 5 && !page.early; i++) page = await read(cookie, headers, path);
    expect(page.early).toBe(true);
    return page;
  };

  it('sends the chain’s headers and bytes, the same for every answer but for its request id', async () => {
    const first = await read(reader.cookie);
    // The first answer is rendered, with a nonce of its own.
    expect(first.headers['content-security-policy']).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    const early = await readEarly(reader.cookie);
    expect(early.headers['x-render']).toBe('again');
    expect(early.html).toContain('Rae Reader');
    expectHashPolicy(early);
    // A conditional request is the chain's: the same kept answer, through every middleware.
    const chain = await read(reader.cookie, { 'if-none-match': '"another"' });
    expect(chain.early).toBe(false);
    expect(chain.headers['x-render']).toBe('again');
    expect(withoutIds(early)).toEqual(withoutIds(chain));
    // Each answer has an id of its own, in its header alone.
    const next = await readEarly(reader.cookie);
    expect(withoutIds(next)).toEqual(withoutIds(early));
    expect(next.headers['x-request-id']).not.toBe(early.headers['x-request-id']);
    // The client's own request id is taken for the header, as requestContext takes it, and is not in the page.
    const named = await read(reader.cookie, { 'x-request-id': 'client-chosen-id-42' });
    expect(named.early).toBe(true);
    expect(named.headers['x-request-id']).toBe('client-chosen-id-42');
    expect(withoutIds(named)).toEqual(withoutIds(early));
  });

  it('keeps no request id the client sent in the page it keeps', async () => {
    // A page this reader has not read yet: rendered for this request, then kept.
    const path = `/blogs/${blogId}?named=1`;
    const rendered = await read(reader.cookie, { 'x-request-id': 'client-chosen-id-43' }, path);
    expect(rendered.early).toBe(false);
    expect(rendered.headers['x-request-id']).toBe('client-chosen-id-43');
    const kept = await readEarly(reader.cookie, {}, path);
    expect(kept.html).not.toContain('client-chosen-id-43');
    expectHashPolicy(kept);
  });

  // What a browser asks for, and what the chain picks from it (docs/decisions/096).
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
  ])('compresses the page as the chain would for Accept-Encoding: %s', async (accept, encoding) => {
    await read(reader.cookie);
    const early = await readEarly(reader.cookie, { 'accept-encoding': accept });
    expect(early.headers['content-encoding']).toBe(encoding);
    expect(early.html).toContain('Rae Reader');
    expectHashPolicy(early);
    const chain = await read(reader.cookie, { 'accept-encoding': accept, 'if-none-match': '"another"' });
    expect(chain.early).toBe(false);
    expect(withoutIds(early)).toEqual(withoutIds(chain));
    // Compressed once for the entry: the chain and every early answer send the same bytes.
    expect(chain.bytes.equals(early.bytes)).toBe(true);
    expect((await readEarly(reader.cookie, { 'accept-encoding': accept })).bytes.equals(early.bytes)).toBe(true);
    // The same page as sent uncompressed, but for its length and encoding.
    const plain = withoutIds(await readEarly(reader.cookie));
    const { 'content-length': _length, ...plainHeaders } = plain.headers;
    expect(withoutIds(early)).toEqual({ headers: { ...plainHeaders, 'content-encoding': encoding }, html: plain.html });
  });

  it('answers each session only with its own page, and an unknown session never', async () => {
    await readEarly(reader.cookie);
    await read(other.cookie);
    const others = await readEarly(other.cookie);
    expect(others.html).toContain('Otto Other');
    expect(others.html).not.toContain('Rae Reader');
    const [name] = reader.cookie.split('=');
    const forged = await read(`${name}=forged.value`);
    expect(forged.early).toBe(false);
    expect(forged.html).not.toContain('Rae Reader');
    expect(forged.html).not.toContain('Otto Other');
    expect((await readEarly(reader.cookie)).html).toContain('Rae Reader');
  });

  it('shows the reader’s own like and another reader’s like at once, then answers early again', async () => {
    const before = likes((await readEarly(reader.cookie)).html);
    expect((await like(reader)).status).toBe(200);
    const mine = await read(reader.cookie);
    expect(mine.early).toBe(false);
    expect(likes(mine.html)).toBe(before + 1);
    expect(likes((await readEarly(reader.cookie)).html)).toBe(before + 1);
    expect((await like(other)).status).toBe(200);
    const theirs = await read(reader.cookie);
    expect(theirs.early).toBe(false);
    expect(likes(theirs.html)).toBe(before + 2);
    expect(likes((await readEarly(reader.cookie)).html)).toBe(before + 2);
  });
});
