import { z } from 'zod';
import { assertCanWrite } from '~/kernel/standing.server';
import { defineJob, enqueueJob } from '~/kernel/jobs.server';
import { AppError, isAppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { MESSAGES } from '~/lib/texts/messages';
import { findVisibleBlog } from './blog-visibility.server';
import { CreateBlogSchema } from './blogs.schema';
import { createBlog } from './blogs.service.server';
import { type DraftInput, SCHEDULE_MAX_DAYS, type ScheduleInput } from './drafts.schema';
import * as repo from './drafts.repo.server';
import type { DraftRow } from './drafts.repo.server';
import { DRAFT_FIELDS as FIELDS } from './blogs.constants';

/** A draft as the canvas and the profile read it (docs/decisions/070). */
export interface DraftJson {
  id: string;
  blogId: string | null;
  values: Record<(typeof FIELDS)[number], string>;
  photo: string | null;
  publishAt: string | null;
  updatedAt: string;
}


function presentDraft(row: DraftRow): DraftJson {
  const values = Object.fromEntries(FIELDS.map((name) => [name, row[name] ?? ''])) as DraftJson['values'];
  return { id: row.id, blogId: row.blog_id, values, photo: row.photo, publishAt: row.publish_at, updatedAt: row.updated_at };
}

/** An id for a draft the server makes (the canvas makes its own in the browser). */
export const newDraftId = () => newId();

export const draftNotFound = () => new AppError('not_found', MESSAGES.draftNotFound);

/** The caller's own draft; anyone else's does not exist for them. */
async function ownDraft(ctx: ServiceContext, id: string): Promise<DraftRow> {
  const user = userOrThrow401(ctx);
  const row = await repo.findDraft(ctx.db, id);
  if (!row || row.owner_id !== user.id) throw draftNotFound();
  return row;
}

/** The fields a save writes: what was sent, an empty text as no value. */
function draftFields(input: DraftInput) {
  const fields: Partial<Record<(typeof FIELDS)[number] | 'photo', string | null>> = {};
  for (const name of FIELDS) if (input[name] !== undefined) fields[name] = input[name] || null;
  if (input.photo !== undefined) fields.photo = input.photo;
  return fields;
}

/**
 * Saves what the canvas holds under the draft's id (made by the browser, so a save sent as the
 * page closes needs no answer): the first save makes the draft, later ones change it. A draft of
 * a published post names it, one draft per post: a save for a post that has one goes to that one.
 * Nothing here is public, listed, federated or mailed: a draft is not a blog.
 */
export async function saveDraft(ctx: ServiceContext, id: string, input: DraftInput): Promise<{ id: string; savedAt: string }> {
  const user = await assertCanWrite(ctx);
  await ctx.limit(RATE_LIMITS.draftSave);
  // Another account signed in at this browser since the page opened: its text is not theirs.
  if (input.writerId && input.writerId !== user.id) throw new AppError('conflict', MESSAGES.draftOtherAccount);
  const now = ctx.now().toISOString();
  const fields = { ...draftFields(input), updated_at: now };
  const existing = await repo.findDraft(ctx.db, id);
  if (existing) {
    if (existing.owner_id !== user.id) throw draftNotFound();
    await repo.updateDraft(ctx.db, id, fields);
    return { id, savedAt: now };
  }
  if (input.blogId) {
    const blog = await findVisibleBlog(ctx, input.blogId);
    if (blog.owner_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyOwnerUpdate);
    const ofBlog = await repo.findDraftOfBlog(ctx.db, input.blogId);
    if (ofBlog) {
      await repo.updateDraft(ctx.db, ofBlog.id, fields);
      return { id: ofBlog.id, savedAt: now };
    }
  }
  await repo.insertDraft(ctx.db, { id, owner_id: user.id, blog_id: input.blogId ?? null, ...fields, created_at: now });
  return { id, savedAt: now };
}

export async function getDraft(ctx: ServiceContext, id: string): Promise<DraftJson> {
  return presentDraft(await ownDraft(ctx, id));
}

/** What the Add screen opens with: the writer's newest draft of a new post, on whatever device it was typed. */
export async function getLatestNewDraft(ctx: ServiceContext): Promise<DraftJson | null> {
  const user = userOrThrow401(ctx);
  const row = await repo.findLatestNewDraft(ctx.db, user.id);
  return row ? presentDraft(row) : null;
}

/** The unpublished edit of the caller's post, if there is one. */
export async function getDraftOfBlog(ctx: ServiceContext, blogId: string): Promise<DraftJson | null> {
  const user = userOrThrow401(ctx);
  const row = await repo.findDraftOfBlog(ctx.db, blogId);
  return row && row.owner_id === user.id ? presentDraft(row) : null;
}

/** How many drafts the profile lists. */
export const DRAFTS_LISTED = 50;

export async function listOwnDrafts(ctx: ServiceContext): Promise<DraftJson[]> {
  const user = userOrThrow401(ctx);
  return (await repo.listDrafts(ctx.db, user.id, DRAFTS_LISTED)).map(presentDraft);
}

export async function discardDraft(ctx: ServiceContext, id: string): Promise<{ deletedCount: number }> {
  await ownDraft(ctx, id);
  return { deletedCount: await repo.deleteDraft(ctx.db, id) };
}

/** After a post was published or saved from the canvas: its draft has done its work. */
export async function dropDraftAfterSave(ctx: ServiceContext, draftId: string | undefined, blogId?: string): Promise<void> {
  const user = userOrThrow401(ctx);
  if (draftId) {
    const row = await repo.findDraft(ctx.db, draftId);
    if (row && row.owner_id === user.id) await repo.deleteDraft(ctx.db, draftId);
  }
  if (blogId) {
    const row = await repo.findDraftOfBlog(ctx.db, blogId);
    if (row && row.owner_id === user.id) await repo.deleteDraft(ctx.db, row.id);
  }
}

const PublishPayload = z.object({ draftId: z.string(), at: z.string() });

/**
 * Publishes a scheduled draft when its time comes. The job is keyed by the draft and its time, so
 * it exists once however often it is asked for, and a changed time is a new job; the old one finds
 * the time moved and does nothing. The blog takes the draft's id, so a second run (a worker died
 * after the insert) finds it made and only tidies up: the post is published, and mailed, once.
 */
export const publishScheduledDraft = defineJob({
  kind: 'draft-publish',
  payload: PublishPayload,
  run: async (ctx, { draftId, at }) => {
    const row = await repo.findDraft(ctx.db, draftId);
    if (!row || row.publish_at === null || new Date(row.publish_at).getTime() !== new Date(at).getTime()) return;
    const owner = await repo.findAccount(ctx.db, row.owner_id);
    if (!owner) return;
    const asOwner: ServiceContext = { ...ctx, user: { id: owner.id, email: owner.email, name: owner.name, image: owner.image }, limit: async () => {} };
    const parsed = CreateBlogSchema.safeParse({ ...presentDraft(row).values, details: row.details ?? undefined, photo: row.photo ?? '' });
    try {
      if (!parsed.success) throw new AppError('bad_request', 'The draft misses a required field');
      await createBlog(asOwner, parsed.data, { id: row.id });
    } catch (error) {
      // Already made by an earlier run: the insert of the same id failed.
      if (await findVisibleBlog(asOwner, row.id).then(() => true, () => false)) {
        await repo.deleteDraft(ctx.db, row.id);
        return;
      }
      // A refusal (a suspended writer, a field the draft lost) will not pass by retrying: the draft
      // stays, no longer scheduled, on the writer's profile.
      if (isAppError(error) && error.status < 500) {
        ctx.log.warn({ draftId, reason: error.message }, 'scheduled draft not published');
        await repo.updateDraft(ctx.db, row.id, { publish_at: null });
        return;
      }
      throw error;
    }
    await repo.deleteDraft(ctx.db, row.id);
  },
});

/**
 * Publish at a chosen time: the whole post is checked now, as publishing it would be, and kept as
 * the draft with its time; the job runner publishes it then (docs/decisions/070). Until then it
 * can be changed (autosave keeps the time) or cancelled.
 */
export async function scheduleDraft(ctx: ServiceContext, id: string, input: ScheduleInput): Promise<{ id: string; publishAt: string }> {
  const user = await assertCanWrite(ctx);
  await ctx.limit(RATE_LIMITS.blogWrite);
  const when = new Date(input.publish_at);
  const now = ctx.now();
  if (when.getTime() <= now.getTime()) throw new AppError('bad_request', MESSAGES.scheduleInPast, 'publish_at');
  if (when.getTime() > now.getTime() + SCHEDULE_MAX_DAYS * 86_400_000) throw new AppError('bad_request', MESSAGES.scheduleTooFar, 'publish_at');
  const at = when.toISOString();
  const { publish_at: _at, ...post } = input;
  const existing = await repo.findDraft(ctx.db, id);
  if (existing && (existing.owner_id !== user.id || existing.blog_id)) throw draftNotFound();
  const fields = { ...draftFields({ ...post, details: post.details ?? '', mail: post.mail ?? 'post', photo_focus: post.photo_focus ?? 'auto', tags: post.tags?.join(', ') }), publish_at: at, updated_at: now.toISOString() };
  await ctx.db.transaction().execute(async (trx) => {
    if (existing) await repo.updateDraft(trx, id, fields);
    else await repo.insertDraft(trx, { id, owner_id: user.id, blog_id: null, ...fields, created_at: now.toISOString() });
    await enqueueJob({ ...ctx, db: trx }, publishScheduledDraft, { draftId: id, at }, { key: `draft-publish:${id}:${at}`, runAt: when });
  });
  return { id, publishAt: at };
}

/** The post waits no longer: it is a draft again, kept as it was. */
export async function cancelSchedule(ctx: ServiceContext, id: string): Promise<{ modifiedCount: number }> {
  await assertCanWrite(ctx);
  const row = await ownDraft(ctx, id);
  if (!row.publish_at) return { modifiedCount: 0 };
  return { modifiedCount: await repo.updateDraft(ctx.db, id, { publish_at: null, updated_at: ctx.now().toISOString() }) };
}
