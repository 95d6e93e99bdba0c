import { assertCanWrite } from '~/kernel/standing.server';
import { emit } from '~/kernel/events.server';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { userOrThrow401, type ServiceContext, type SessionUser } from '~/lib/core/service-context';
import { aboutOf, type ProfileAbout, type ProfileView } from './users.presenter';
import { blogsTouchedBy, countAccounts, deleteAccount, findAccount, findAccountByEmail as findAccountRowByEmail, findProfile, insertProfileIfMissing, type ProfileRow, updateProfile, deleteResetLinks } from './users.repo.server';
import { type SaveUserInput, sameEmail, type UpdateProfileInput } from './users.schema';

interface NewAccount {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
}


/** The signed-in user (userOrThrow401), when `email` is theirs: 401 anonymous, 403 anybody else's email. */
export function assertOwnEmail(ctx: ServiceContext, email: string): SessionUser {
  const user = userOrThrow401(ctx);
  if (!sameEmail(user.email, email)) throw new AppError('forbidden', MESSAGES.forbidden);
  return user;
}

function newProfileRow(ctx: ServiceContext, account: NewAccount): ProfileRow {
  const now = ctx.now().toISOString();
  return {
    user_id: account.id,
    email: account.email.toLowerCase(),
    name: account.name?.trim() || null,
    photo: account.image || null,
    uid: account.id,
    last_login_at: null,
    updated_at: now,
    bio: null,
    website: null,
    links: null,
    show_views: 1,
  };
}

/**
 * Every account gets its user record when it is created (docs/product.md#subscriber-user-record-signed-in-person), from the
 * values it signed up with or the provider's; later sign-ins never overwrite it.
 */
export async function createUserRecord(ctx: ServiceContext, account: NewAccount): Promise<void> {
  try {
    await insertProfileIfMissing(ctx.db, newProfileRow(ctx, account));
  } catch (error) {
    // better-auth has already stored the account. Without its record the address could never
    // sign in or register again, so the whole account goes and the sign-up fails.
    await deleteAccount(ctx.db, account.id);
    throw error;
  }
}

/** Keeps the last sign-in time (the Edit profile screen's Last Login). */
export async function recordSignIn(ctx: ServiceContext, userId: string): Promise<void> {
  const at = ctx.now().toISOString();
  if ((await updateProfile(ctx.db, userId, { last_login_at: at, updated_at: at })) > 0) return;
  // Accounts created before the hook existed have no record yet.
  const account = await findAccount(ctx.db, userId);
  if (!account) return;
  await insertProfileIfMissing(ctx.db, { ...newProfileRow(ctx, account), last_login_at: at });
}

/**
 * Before an account goes (docs/decisions/067): what the cascade cannot tidy by itself, noted
 * while the rows still say it. Its posts, comments, likes, follows, wishlist, profile, sessions
 * and sign-in methods go with the user row; the photos they used are swept as orphans.
 */
export async function noteAccountLeaving(ctx: ServiceContext, userId: string): Promise<{ blogIds: string[] }> {
  return { blogIds: await blogsTouchedBy(ctx.db, userId) };
}

/** Once the account is gone: no reset link of it is left, and the other features tidy after it (queued mails, counts). */
export async function accountDeleted(ctx: ServiceContext, account: { userId: string; email: string; blogIds: string[]; postIds?: string[] }): Promise<void> {
  await deleteResetLinks(ctx.db, account.userId);
  await emit(ctx, 'account.deleted', { ...account, email: account.email.toLowerCase() });
  ctx.log.info({ userId: account.userId }, 'account deleted');
}

/** A confirmed email change: the stored profile keeps the account's current address. */
export async function syncProfileEmail(ctx: ServiceContext, userId: string, email: string): Promise<void> {
  await updateProfile(ctx.db, userId, { email: email.toLowerCase(), updated_at: ctx.now().toISOString() });
}

/** The session user with the stored profile's name and photo over the account's. */
export async function withStoredProfile(ctx: ServiceContext, user: SessionUser): Promise<SessionUser> {
  const profile = await findProfile(ctx.db, user.id);
  if (!profile) return user;
  return { ...user, name: profile.name ?? user.name, image: profile.photo ?? user.image };
}

async function viewOf(ctx: ServiceContext, user: SessionUser): Promise<ProfileView> {
  const profile = await findProfile(ctx.db, user.id);
  return {
    email: user.email,
    name: profile?.name ?? user.name ?? null,
    photo: profile?.photo ?? user.image ?? null,
    lastLoginAt: profile?.last_login_at ?? null,
    ...aboutOf(profile),
  };
}

/** How many people have an account (the home page's figures). */
/** The operator's command line acts as an account named by its email (`npm run import -- FILE --as EMAIL`). */
export async function findAccountByEmail(ctx: ServiceContext, email: string): Promise<SessionUser | null> {
  const row = await findAccountRowByEmail(ctx.db, email);
  return row ? { id: row.id, name: row.name, email: row.email, image: row.image } : null;
}

export async function countMembers(ctx: ServiceContext): Promise<number> {
  return countAccounts(ctx.db);
}

export interface AuthorView extends ProfileAbout {
  id: string;
  name: string;
  photo: string | null;
}

/** An author page's header: the writer's current name, photo, bio and links, public like their blogs' bylines. */
export async function getAuthor(ctx: ServiceContext, userId: string): Promise<AuthorView> {
  const [account, profile] = await Promise.all([findAccount(ctx.db, userId), findProfile(ctx.db, userId)]);
  if (!account) throw new AppError('not_found', MESSAGES.authorNotFound);
  return { id: account.id, name: profile?.name ?? account.name, photo: profile?.photo ?? account.image ?? null, ...aboutOf(profile) };
}

/** GET /update/{email} and the profile screens: the caller's own profile only. */
export async function getOwnProfile(ctx: ServiceContext, email: string): Promise<ProfileView> {
  const user = assertOwnEmail(ctx, email);
  return viewOf(ctx, user);
}

/** PATCH /update/{email} and Edit profile: a name and, when one was chosen, a new photo. */
export async function updateOwnProfile(ctx: ServiceContext, email: string, input: UpdateProfileInput): Promise<ProfileView> {
  const user = assertOwnEmail(ctx, email);
  await assertCanWrite(ctx);
  const changes: { name?: string | null; photo?: string | null; bio?: string | null; website?: string | null; links?: string | null } = {};
  if (input.name !== undefined) changes.name = input.name || null;
  if (input.photo !== undefined) changes.photo = input.photo;
  if (input.bio !== undefined) changes.bio = input.bio;
  if (input.website !== undefined) changes.website = input.website;
  if (input.links !== undefined) changes.links = input.links.length > 0 ? JSON.stringify(input.links) : null;
  await ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now().toISOString();
    const account = { id: user.id, email: user.email, name: user.name, image: user.image };
    await insertProfileIfMissing(trx, newProfileRow(ctx, account));
    const before = changes.name !== undefined ? (await findProfile(trx, user.id))?.name : undefined;
    await updateProfile(trx, user.id, { ...changes, updated_at: at });
    if (changes.name !== undefined && (changes.name ?? user.name) !== (before ?? user.name)) await emit({ ...ctx, db: trx }, 'account.renamed', { userId: user.id });
  });
  ctx.log.info({ userId: user.id }, 'profile updated');
  return viewOf(ctx, user);
}

/** Whether the caller shows her view counts to everyone (docs/decisions/069); yes until she says no. */
export async function getShowViews(ctx: ServiceContext): Promise<boolean> {
  const user = userOrThrow401(ctx);
  const profile = await findProfile(ctx.db, user.id);
  return profile === undefined || Number(profile.show_views) === 1;
}

/** The caller's choice: her posts' "N views" shown to everyone, or to her alone (docs/decisions/069). */
export async function setShowViews(ctx: ServiceContext, show: boolean): Promise<void> {
  const user = await assertCanWrite(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    await insertProfileIfMissing(trx, newProfileRow(ctx, { id: user.id, email: user.email, name: user.name, image: user.image }));
    await updateProfile(trx, user.id, { show_views: show ? 1 : 0, updated_at: ctx.now().toISOString() });
  });
}

/**
 * POST /users: saves the caller's own user record. A record that exists keeps its name and photo
 * (the stored profile wins over provider values); missing values are filled in.
 */
export async function saveOwnUserRecord(
  ctx: ServiceContext,
  input: SaveUserInput,
): Promise<{ created: boolean; record: ProfileView & { uid: string } }> {
  const user = assertOwnEmail(ctx, input.email);
  await assertCanWrite(ctx);
  const created = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await insertProfileIfMissing(trx, newProfileRow(ctx, {
      id: user.id,
      email: user.email,
      name: input.name || user.name,
      image: input.photo ?? user.image,
    }));
    if (inserted) return true;
    const existing = await findProfile(trx, user.id);
    const fill: { name?: string; photo?: string } = {};
    if (!existing?.name && input.name) fill.name = input.name;
    if (!existing?.photo && input.photo) fill.photo = input.photo;
    if (Object.keys(fill).length > 0) await updateProfile(trx, user.id, { ...fill, updated_at: ctx.now().toISOString() });
    return false;
  });
  return { created, record: { ...(await viewOf(ctx, user)), uid: user.id } };
}
