import { issueToken } from '~/features/users/account.service.server';
import { presentProfile, presentUserRecord } from '~/features/users/users.presenter';
import { getOwnProfile, saveOwnUserRecord, updateOwnProfile } from '~/features/users/users.service.server';
import { EmailSchema, type SaveUserInput, type UpdateProfileInput } from '~/features/users/users.schema';
import type { Handler, Handlers } from './endpoints.server';
import { parseInput } from './handlers.server';

/** A token only for a caller already signed in as that email (account.service: issueToken). */
const token: Handler = async ({ c, ctx, body }) => c.json(await issueToken(ctx, body as { email: string }));

/** The account calls (docs/product.md#the-api). */
export const USER_HANDLERS: Handlers = {
  'post /api/jwt': token,
  'post /api/users/jwt': token,
  'post /api/users': async ({ c, ctx, body }) => {
    const { created, record } = await saveOwnUserRecord(ctx, body as SaveUserInput);
    return c.json({ ...presentUserRecord(record), insertedId: created ? record.uid : null }, created ? 201 : 200);
  },
  'get /api/update/{email}': async ({ c, ctx }) => c.json(presentProfile(await getOwnProfile(ctx, parseInput(EmailSchema, c.req.param('email'))))),
  'patch /api/update/{email}': async ({ c, ctx, body }) => {
    const profile = await updateOwnProfile(ctx, parseInput(EmailSchema, c.req.param('email')), body as UpdateProfileInput);
    return c.json({ modifiedCount: 1, ...presentProfile(profile) });
  },
};
