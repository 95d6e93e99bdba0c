import { type Context, Hono } from 'hono';
import { presentProfile, presentUserRecord } from '~/features/users/users.presenter';
import { getOwnProfile, requireOwnEmail, saveOwnUserRecord, updateOwnProfile } from '~/features/users/users.service.server';
import { EmailSchema, SaveUserSchema, TokenRequestSchema, UpdateProfileSchema } from '~/features/users/users.schema';
import { AppError } from '~/lib/errors';
import { MESSAGES } from '~/lib/messages';
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { parseInput, readJson } from './http.server';

/**
 * Spec §7's account calls. A token is only ever handed to a caller already signed in as that
 * email (BRIEF §2): it is their session's own token, so it expires with the session and stops
 * working at logout.
 */
export function usersApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();

  const issueToken = async (c: Context<{ Variables: AppVariables }>) => {
    const { email } = parseInput(TokenRequestSchema, readJson(c));
    requireOwnEmail(serviceContext(deps, c.get('user')), email);
    const session = await deps.auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) throw new AppError('unauthenticated', MESSAGES.authRequired);
    return c.json({ token: session.session.token });
  };
  api.post('/jwt', issueToken);
  api.post('/users/jwt', issueToken);

  api.post('/users', async (c) => {
    const input = parseInput(SaveUserSchema, readJson(c));
    const { created, record } = await saveOwnUserRecord(serviceContext(deps, c.get('user')), input);
    return c.json({ ...presentUserRecord(record), insertedId: created ? record.uid : null }, created ? 201 : 200);
  });

  api.get('/update/:email', async (c) => {
    const email = parseInput(EmailSchema, c.req.param('email'));
    return c.json(presentProfile(await getOwnProfile(serviceContext(deps, c.get('user')), email)));
  });

  api.patch('/update/:email', async (c) => {
    const email = parseInput(EmailSchema, c.req.param('email'));
    const input = parseInput(UpdateProfileSchema, readJson(c));
    const profile = await updateOwnProfile(serviceContext(deps, c.get('user')), email, input);
    return c.json({ modifiedCount: 1, ...presentProfile(profile) });
  });

  return api;
}
