import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { resolveUser } from '../../context.server';
import type { TestUser } from '#test/test-app';
import { getAuthor } from '~/features/users/users.service.server';

describeOnDialects('account API on %s', (t) => {
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    owner = await t.createUser({ name: 'Owner Olsen', image: 'https://images.example.org/owner.png' });
    other = await t.createUser({ name: 'Other Otto' });
  });

  const as = (who: TestUser | null, via: 'cookie' | 'bearer'): Record<string, string> =>
    !who ? {} : via === 'cookie' ? { cookie: who.cookie } : { authorization: `Bearer ${who.token}` };

  describe.each(['cookie', 'bearer'] as const)('with the %s', (via) => {
    it.each(['/api/jwt', '/api/users/jwt'])('%s gives a token only to the signed-in owner of the email', async (path) => {
      const anon = await t.request(path, { method: 'POST', json: { email: owner.user.email } });
      expect(anon.status).toBe(401);
      const foreign = await t.request(path, { method: 'POST', json: { email: owner.user.email, name: 'x' }, headers: as(other, via) });
      expect(foreign.status).toBe(403);
      const own = await t.request(path, { method: 'POST', json: { email: owner.user.email.toUpperCase(), name: 'O', photo: '' }, headers: as(owner, via) });
      expect(own.status).toBe(200);
      const { token } = (await own.json()) as { token: string };
      expect(Object.keys(await (await t.request(path, { method: 'POST', json: { email: owner.user.email }, headers: as(owner, via) })).json())).toEqual(['token']);
      // The token is a working bearer credential for that user.
      const profile = await t.request(`/api/update/${owner.user.email}`, { headers: { authorization: `Bearer ${token}` } });
      expect(profile.status).toBe(200);
    });

    it('GET /api/update/{email} answers the owner only, with the stored name and photo', async () => {
      expect((await t.request(`/api/update/${owner.user.email}`)).status).toBe(401);
      expect((await t.request(`/api/update/${owner.user.email}`, { headers: as(other, via) })).status).toBe(403);
      const res = await t.request(`/api/update/${owner.user.email}`, { headers: as(owner, via) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['name', 'photo']);
    });

    it('PATCH /api/update/{email} changes only one’s own profile', async () => {
      const path = `/api/update/${owner.user.email}`;
      expect((await t.request(path, { method: 'PATCH', json: { name: 'Hacker' } })).status).toBe(401);
      expect((await t.request(path, { method: 'PATCH', json: { name: 'Hacker' }, headers: as(other, via) })).status).toBe(403);
      const name = `Olsen via ${via}`;
      const res = await t.request(path, { method: 'PATCH', json: { name, photo: '/uploads/abc-800.webp' }, headers: as(owner, via) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ modifiedCount: 1, name, photo: '/uploads/abc-800.webp' });
      expect(await (await t.request(path, { headers: as(owner, via) })).json()).toEqual({ name, photo: '/uploads/abc-800.webp' });
      expect(await (await t.request(`/api/update/${other.user.email}`, { headers: as(other, via) })).json()).toEqual({ name: 'Other Otto', photo: null });
    });
  });

  it('PATCH takes a bio, website and links with the form’s rules, and a refused one changes nothing', async () => {
    const path = `/api/update/${owner.user.email}`;
    const headers = { cookie: owner.cookie };
    const ok = await t.request(path, { method: 'PATCH', json: { bio: 'Maps and tea.', website: 'https://olsen.example', links: ['https://social.example/@olsen'] }, headers });
    expect(ok.status).toBe(200);
    const shown = () => getAuthor(t.context(null), owner.user.id);
    expect(await shown()).toMatchObject({ bio: 'Maps and tea.', website: 'https://olsen.example', links: ['https://social.example/@olsen'] });
    for (const json of [{ bio: 'Other.', website: 'javascript:alert(1)' }, { bio: 'Other.', links: ['https://a.example', 'ftp://b.example'] }, { bio: 'b'.repeat(501) }]) {
      const refused = await t.request(path, { method: 'PATCH', json, headers });
      expect(refused.status).toBe(400);
    }
    expect(await shown()).toMatchObject({ bio: 'Maps and tea.', website: 'https://olsen.example', links: ['https://social.example/@olsen'] });
  });

  it('PATCH accepts `Name`, keeps the photo when none is sent, and names a bad field', async () => {
    const path = `/api/update/${owner.user.email}`;
    const before = (await (await t.request(path, { headers: { cookie: owner.cookie } })).json()) as { photo: string };
    const res = await t.request(path, { method: 'PATCH', json: { Name: 'Capital Name' }, headers: { cookie: owner.cookie } });
    expect(await res.json()).toEqual({ modifiedCount: 1, name: 'Capital Name', photo: before.photo });
    const bad = await t.request(path, { method: 'PATCH', json: { photo: 'javascript:alert(1)' }, headers: { cookie: owner.cookie } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^photo:/);
    const long = await t.request(path, { method: 'PATCH', json: { name: 'x'.repeat(101) }, headers: { cookie: owner.cookie } });
    expect(long.status).toBe(400);
    expect((await t.request(path, { method: 'PATCH', body: 'name=x', headers: { cookie: owner.cookie, 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('the stored profile is what every screen shows as the signed-in user', async () => {
    const who = await t.createUser({ name: 'Account Name' });
    await t.request(`/api/update/${who.user.email}`, { method: 'PATCH', json: { name: 'Profile Name', photo: 'https://cdn.example.org/p.png' }, headers: { cookie: who.cookie } });
    const user = await resolveUser(t.deps, new Headers({ cookie: who.cookie }));
    expect(user).toMatchObject({ name: 'Profile Name', image: 'https://cdn.example.org/p.png', email: who.user.email });
  });

  it('POST /api/users saves the caller’s own record once; the stored profile wins afterwards', async () => {
    const who = await t.createUser({ name: 'First Name' });
    const record = { email: who.user.email, name: 'Provider Name', photo: 'https://id.example.org/a.png', uid: 'provider-uid' };
    expect((await t.request('/api/users', { method: 'POST', json: record })).status).toBe(401);
    expect((await t.request('/api/users', { method: 'POST', json: record, headers: { cookie: other.cookie } })).status).toBe(403);
    const first = await t.request('/api/users', { method: 'POST', json: record, headers: { authorization: `Bearer ${who.token}` } });
    expect(first.status).toBe(200);
    // The sign-up already created the record, so only the missing photo is filled in.
    expect(await first.json()).toEqual({ name: 'First Name', email: who.user.email, photo: 'https://id.example.org/a.png', uid: who.user.id, insertedId: null });
    await t.request(`/api/update/${who.user.email}`, { method: 'PATCH', json: { name: 'Chosen Name' }, headers: { cookie: who.cookie } });
    const again = await t.request('/api/users', { method: 'POST', json: { ...record, photo: 'https://id.example.org/b.png' }, headers: { cookie: who.cookie } });
    expect(await again.json()).toMatchObject({ name: 'Chosen Name', photo: 'https://id.example.org/a.png' });
    const bad = await t.request('/api/users', { method: 'POST', json: { email: 'not-an-email' }, headers: { cookie: who.cookie } });
    expect(bad.status).toBe(400);
  });

  it('tokens stop working at logout', async () => {
    const who = await t.createUser();
    const res = await t.request('/api/jwt', { method: 'POST', json: { email: who.user.email }, headers: { cookie: who.cookie } });
    const { token } = (await res.json()) as { token: string };
    const out = await t.request('/api/auth/sign-out', { method: 'POST', json: {}, headers: { cookie: who.cookie } });
    expect(out.status).toBe(200);
    expect((await t.request(`/api/update/${who.user.email}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await t.request('/api/jwt', { method: 'POST', json: { email: who.user.email }, headers: { cookie: who.cookie } })).status).toBe(401);
  });

  it('refuses a cookie-authenticated change from another site', async () => {
    const res = await t.request(`/api/update/${owner.user.email}`, {
      method: 'PATCH',
      json: { name: 'CSRF' },
      headers: { cookie: owner.cookie, origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
  });
});
