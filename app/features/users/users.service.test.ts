import { describe, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { getAuthor, getOwnProfile, recordSignIn, updateOwnProfile, withStoredProfile } from './users.service.server';
import { imageFailure, SignUpSchema, UpdateProfileSchema } from './users.schema';

describeOnDialects('users service on %s', (t) => {
  it('refuses anonymous callers and other people’s emails', async () => {
    const { user } = await t.createUser();
    const other = await t.createUser();
    await expect(getOwnProfile(t.context(null), user.email)).rejects.toMatchObject({ status: 401 });
    await expect(getOwnProfile(t.context(other.user), user.email)).rejects.toMatchObject({ status: 403 });
    await expect(updateOwnProfile(t.context(other.user), user.email, { name: 'x', photo: undefined })).rejects.toMatchObject({ status: 403 });
  });

  it('falls back to the account’s name when the stored name is cleared', async () => {
    const { user } = await t.createUser({ name: 'Account Name' });
    const ctx = t.context(user);
    expect((await updateOwnProfile(ctx, user.email, { name: 'Stored', photo: undefined })).name).toBe('Stored');
    expect((await withStoredProfile(ctx, user)).name).toBe('Stored');
    expect((await updateOwnProfile(ctx, user.email, { name: '', photo: undefined })).name).toBe('Account Name');
  });

  it('creates the record of an account that has none at its next sign-in', async () => {
    const { user } = await t.createUser();
    await t.deps.database.db.deleteFrom('profiles').where('user_id', '=', user.id).execute();
    const fixed = new Date('2026-05-01T08:30:00.000Z');
    await recordSignIn({ ...t.context(null), now: () => fixed }, user.id);
    expect(await getOwnProfile(t.context(user), user.email)).toEqual({ email: user.email, name: user.name, photo: null, lastLoginAt: fixed.toISOString(), bio: null, website: null, links: [] });
  });

  it('keeps a bio, website and links, shows them on the author page, and clears them when emptied', async () => {
    const { user } = await t.createUser({ name: 'Writer' });
    const ctx = t.context(user);
    const about = UpdateProfileSchema.parse({ bio: '  Writes about dusk.  ', website: 'https://writer.example', links: 'https://social.example/@w\n\n https://code.example/w ' });
    await updateOwnProfile(ctx, user.email, about);
    expect(await getAuthor(t.context(null), user.id)).toMatchObject({ name: 'Writer', bio: 'Writes about dusk.', website: 'https://writer.example', links: ['https://social.example/@w', 'https://code.example/w'] });
    // A save that leaves the about fields out keeps them.
    await updateOwnProfile(ctx, user.email, { name: 'Renamed' });
    expect((await getOwnProfile(ctx, user.email)).bio).toBe('Writes about dusk.');
    await updateOwnProfile(ctx, user.email, UpdateProfileSchema.parse({ bio: '', website: '', links: '' }));
    expect(await getAuthor(t.context(null), user.id)).toMatchObject({ bio: null, website: null, links: [] });
  });

  it('refuses an over-long bio in the database too', async () => {
    const { user } = await t.createUser();
    await expect(t.deps.database.db.updateTable('profiles').set({ bio: 'b'.repeat(601) }).where('user_id', '=', user.id).execute()).rejects.toThrow();
  });
});

describe('account schemas', () => {
  it('apply the product’s password rule and the terms', () => {
    const base = { email: 'A@Example.com', name: 'A', password: 'Sunset123', terms: 'on' };
    expect(SignUpSchema.parse(base).email).toBe('a@example.com');
    expect(SignUpSchema.safeParse({ ...base, terms: undefined }).error?.issues[0]?.message).toBe('please accept the terms and conditions.');
    for (const password of ['Sunset1', 'sunset123', 'SUNSET123', 'Sunsetabc']) expect(SignUpSchema.safeParse({ ...base, password }).success).toBe(false);
  });

  it('accept only image URLs as photos', () => {
    expect(UpdateProfileSchema.parse({ photo: '/uploads/a.webp' }).photo).toBe('/uploads/a.webp');
    expect(UpdateProfileSchema.parse({ photo: '' }).photo).toBeNull();
    for (const photo of ['//evil.example/a.png', 'javascript:alert(1)', 'data:image/png;base64,AA']) {
      expect(UpdateProfileSchema.safeParse({ photo }).success).toBe(false);
    }
  });

  it('accept only web addresses as website and links, within their limits', () => {
    for (const website of ['javascript:alert(1)', 'ftp://files.example', 'not a url', `https://a.example/${'x'.repeat(200)}`]) {
      expect(UpdateProfileSchema.safeParse({ website }).success).toBe(false);
    }
    expect(UpdateProfileSchema.safeParse({ links: ['https://a.example', 'data:text/html,hi'] }).error?.issues[0]?.message).toBe('Each link must be a web address starting with https://');
    expect(UpdateProfileSchema.safeParse({ links: Array.from({ length: 6 }, (_, i) => `https://l${i}.example`) }).error?.issues[0]?.message).toBe('At most 5 links');
    expect(UpdateProfileSchema.safeParse({ bio: 'b'.repeat(501) }).error?.issues[0]?.message).toBe('Bio must be at most 500 characters');
    expect(UpdateProfileSchema.parse({ name: 'A' })).toEqual({ name: 'A', photo: undefined, bio: undefined, website: undefined, links: undefined });
  });

  it('word an image failure as a sentence', () => {
    expect(imageFailure('image: must be a JPEG, PNG, WebP or GIF image')).toBe('Image upload failed. Must be a JPEG, PNG, WebP or GIF image.');
  });
});
