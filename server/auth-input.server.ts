import { APIError } from 'better-auth/api';
import { z } from 'zod';
import { ClearablePhotoUrlSchema } from '~/features/images/photo-url.schema';
import { NAME_MAX_LENGTH, SignUpSchema } from '~/features/users/users.schema';

/**
 * better-auth serves /api/auth/* itself, so its JSON doors skip what our forms check: a name of
 * any length made a user without a profile (500, and the address could never register again),
 * a 900 KB or `javascript:` photo was shown on every page the person appears on (docs/decisions/022).
 * The forms' own schemas run on those bodies here; the database's CHECKs back them up.
 */
export const AUTH_INPUT = {
  '/sign-up/email': SignUpSchema.pick({ email: true, name: true }).extend({ image: ClearablePhotoUrlSchema.nullish() }),
  '/update-user': z.object({ name: SignUpSchema.shape.name.optional(), image: ClearablePhotoUrlSchema.nullish() }),
} satisfies Record<string, z.ZodObject>;

/** Refuses a bad body with 400 and the form's message; other endpoints pass untouched. */
export function checkAuthInput(path: string, body: unknown): void {
  const schema = (AUTH_INPUT as Record<string, z.ZodType>)[path];
  if (!schema) return;
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new APIError('BAD_REQUEST', { message: result.error.issues[0]!.message, code: 'INVALID_INPUT' });
}

interface UserFields {
  name?: string | null;
  image?: string | null;
}

/**
 * What a provider (Google, OpenID Connect) says about a person, held to the same limits: a long
 * name is cut and an unusable picture dropped rather than refused, so a sign-in never fails on
 * the provider's data. Email sign-ups and profile changes were already refused above.
 */
export function fitUserToLimits(user: UserFields): { data: { name?: string; image?: string | null } } {
  const data: { name?: string; image?: string | null } = {};
  if (typeof user.name === 'string' && user.name.length > NAME_MAX_LENGTH) data.name = user.name.trim().slice(0, NAME_MAX_LENGTH);
  if (typeof user.image === 'string' && !ClearablePhotoUrlSchema.safeParse(user.image).success) data.image = null;
  return { data };
}
