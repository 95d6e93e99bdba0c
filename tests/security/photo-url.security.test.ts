import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';

/**
 * Photo values a browser would fetch from another site, or that carry control characters
 * (browsers drop tabs and line breaks inside a URL: `/\t/evil.example` is `//evil.example`).
 */
const REFUSED = [
  '/\t/evil.example/t.png',
  '/\n/evil.example/t.png',
  '/\r/evil.example/t.png',
  '/\\evil.example/t.png',
  '/\t\\evil.example/t.png',
  '//evil.example/t.png',
  '/uploads/a\u0000b.webp',
  '/uploads/a\u001bb.webp',
  '/uploads/a\u007fb.webp',
  'https://example.com/a\u0085b.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
];
const ACCEPTED = ['/uploads/me.webp', 'https://lh3.googleusercontent.com/a/photo.jpg'];

describeOnDialects('photo URLs on %s', (t, dialect) => {
  let me: TestUser;
  beforeAll(async () => {
    me = await t.createUser();
  });

  const storedPhoto = async () => ((await (await t.request(`/api/update/${me.user.email}`, { headers: { cookie: me.cookie } })).json()) as { photo: string | null }).photo;

  it('refuses off-site paths and control characters on every door, and keeps the stored photo', async () => {
    const doors = [
      (photo: string) => t.request(`/api/update/${me.user.email}`, { method: 'PATCH', headers: { cookie: me.cookie }, json: { photo } }),
      (photo: string) => t.request('/api/users', { method: 'POST', headers: { cookie: me.cookie }, json: { email: me.user.email, name: me.user.name, photo } }),
    ];
    const before = await storedPhoto();
    const accepted: string[] = [];
    for (const photo of REFUSED) {
      for (const send of doors) {
        const res = await send(photo);
        if (res.status !== 400) accepted.push(`${JSON.stringify(photo)} → ${res.status}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(await storedPhoto()).toBe(before);
    for (const photo of ACCEPTED) {
      expect((await doors[0]!(photo)).status, photo).toBe(200);
      expect(await storedPhoto()).toBe(photo);
    }
    console.log(`photo URLs (${dialect}): ${accepted.length} accepted / ${REFUSED.length} off-site or control-character values × ${doors.length} doors; ${ACCEPTED.length} of ${ACCEPTED.length} good ones kept`);
  });
});
