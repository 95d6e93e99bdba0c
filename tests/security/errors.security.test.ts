import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '#server/http/api/operations.server';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';

// `npm run test:security` sends 5,000 generated bodies per endpoint; inside `npm test` fewer.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const LEAKS = /at \w+ \(|node_modules|\/work\/|\/home\/|SQLITE_|syntax error at|relation "|violates|Kysely|TypeError|ReferenceError/;

/** JSON values of every shape, including the API's field names with hostile values. */
const FIELDS = ['title', 'category', 'type', 'short_description', 'long_description', 'availability', 'photo', 'email', 'name', 'Name', 'commentText', 'blogId', 'likeCount', 'createdAt', 'description', 'uid', 'page', 'limit'];
const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.integer(),
  fc.double(),
  fc.bigInt().map((n) => n.toString() + '0'.repeat(30)),
  fc.constantFrom(null, true, false, '', ' ', '\u0000', '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>', 'x'.repeat(200_001), '9'.repeat(400), '{}', '[]'),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const bodies = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), hostile, { maxKeys: 8 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
);
const segment = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent), fc.constantFrom('%00', '..%2f..', 'null', '-1', '1e99', '%E0%A4%A'));

describe('every endpoint answers bad input with a clear 4xx and nothing else', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    user = await t.createUser();
  });
  afterAll(async () => t?.close());

  const operations = OPERATIONS.filter((op) => !op.path.startsWith('/api/auth/') && !op.multipart);
  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(bodies, segment, fc.boolean(), fc.constantFrom('json', 'text', 'broken'), async (body, param, signedIn, encoding) => {
        let path = op.path.replace(/\{\w+\}/g, param);
        if (op.method === 'get' && body && typeof body === 'object' && !Array.isArray(body)) {
          path += `?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}`;
        }
        const raw = encoding === 'broken' ? `${JSON.stringify(body)}}{` : JSON.stringify(body);
        const headers: Record<string, string> = { 'content-type': encoding === 'text' ? 'text/plain' : 'application/json' };
        if (signedIn) headers.authorization = `Bearer ${user.token}`;
        const res = await t.request(path, { method: op.method.toUpperCase(), headers, body: op.method === 'get' ? undefined : raw });
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        if (res.status >= 500) throw new Error(`${res.status} for ${path} ${raw.slice(0, 200)}: ${text.slice(0, 300)}`);
        expect(LEAKS.test(text), `leak in ${text.slice(0, 300)}`).toBe(false);
        if (res.status >= 400) {
          expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
          expect(typeof (JSON.parse(text) as { message?: unknown }).message).toBe('string');
        }
      }),
      { numRuns: RUNS },
    );
    console.log(`errors: ${op.method.toUpperCase()} ${op.path}: ${sent} generated requests, 0 server errors (${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')})`);
  }, 600_000);

  it('refuses a 10 MB JSON body without reading it whole', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(10 * 1024 * 1024) });
    const res = await t.request('/api/blogs', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` }, body: huge });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBeTruthy();
  });
});
