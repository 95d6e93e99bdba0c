import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { NAME_MAX_LENGTH, PHOTO_MAX_LENGTH } from '~/features/users/users.schema';

/**
 * better-auth's own JSON endpoints run the forms' schemas (docs/decisions/022). A sign-up the form
 * would refuse answers 400 and leaves no account behind (it used to answer 500 and leave a user
 * without a profile, so the address could never register again), and a profile change through
 * /api/auth/update-user is held to the profile form's rules (it took a 900 KB or `javascript:`
 * photo, which every comment then copied).
 */
describeOnDialects('better-auth input on %s', (t, dialect) => {
  const signUp = (body: Record<string, unknown>) => t.request('/api/auth/sign-up/email', { method: 'POST', json: { password: 'Sunset123', ...body } });
  const usersWithoutProfile = async () => {
    const row = await t.deps.database.db
      .selectFrom('user')
      .leftJoin('profiles', 'profiles.user_id', 'user.id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('profiles.user_id', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('refuses bad sign-ups and profile updates with the form’s message and keeps every account whole', async () => {
    const accepted: string[] = [];
    let bad = 0;
    const expectRefused = async (label: string, res: Response, message: string | RegExp) => {
      bad++;
      const body = (await res.json()) as { message?: string };
      if (res.status !== 400) accepted.push(`${label}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      else expect(body.message, label).toMatch(message);
    };

    const squatted = `squat.${dialect}@auth-input.test`;
    await expectRefused('sign-up, long name', await signUp({ email: squatted, name: 'n'.repeat(NAME_MAX_LENGTH + 1) }), `Name must be at most ${NAME_MAX_LENGTH} characters`);
    await expectRefused('sign-up, long image', await signUp({ email: squatted, name: 'Squatter', image: `https://example.com/${'i'.repeat(PHOTO_MAX_LENGTH)}` }), `Photo URL must be at most ${PHOTO_MAX_LENGTH} characters`);
    await expectRefused('sign-up, javascript: image', await signUp({ email: squatted, name: 'Squatter', image: 'javascript:alert(1)' }), 'Photo must be an image URL');
    // The address is still free: its owner signs up normally.
    const owner = await signUp({ email: squatted, name: 'Rightful Owner' });
    expect(owner.status, await owner.clone().text()).toBe(200);

    const { cookie } = await t.createUser({ name: 'Photo Changer' });
    const update = (json: unknown) => t.request('/api/auth/update-user', { method: 'POST', headers: { cookie }, json });
    await expectRefused('update-user, 900 KB photo', await update({ image: `https://example.com/${'p'.repeat(900 * 1024)}` }), /Photo URL must be at most|too large/i);
    await expectRefused('update-user, javascript: photo', await update({ image: 'javascript:alert(document.cookie)' }), 'Photo must be an image URL');
    await expectRefused('update-user, long name', await update({ name: 'n'.repeat(NAME_MAX_LENGTH + 1) }), `Name must be at most ${NAME_MAX_LENGTH} characters`);
    expect((await update({ name: 'Fine Name', image: 'https://example.com/me.webp' })).status).toBe(200);

    const incomplete = await usersWithoutProfile();
    console.log(`auth input (${dialect}): ${accepted.length} accepted / ${bad} bad sign-ups and profile updates, ${incomplete} users without a profile`);
    expect(accepted).toEqual([]);
    expect(incomplete).toBe(0);
  });

  it('undoes the account when its profile cannot be made, so the address can sign up again', async () => {
    const { db } = t.deps.database;
    const email = `half.${dialect}@auth-input.test`;
    // A profile row that already claims the address makes the record fail (profiles.email is unique).
    const stranger = await t.createUser();
    await db.updateTable('profiles').set({ email }).where('user_id', '=', stranger.user.id).execute();
    const failed = await signUp({ email, name: 'Half Made' });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(await db.selectFrom('user').select('id').where('email', '=', email).execute()).toEqual([]);
    await db.updateTable('profiles').set({ email: stranger.user.email }).where('user_id', '=', stranger.user.id).execute();
    expect((await signUp({ email, name: 'Whole Now' })).status).toBe(200);
    expect(await usersWithoutProfile()).toBe(0);
  });
});
