import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import { GrantModeratorSchema, MODERATED_CONTENT, ModerationReasonSchema, SuspendFormSchema } from './moderation.schema';
import {
  banFromCommenting,
  deleteContent,
  dismissReport,
  grantModerator,
  hideContent,
  restoreContent,
  revokeModerator,
  suspendUser,
  unsuspendUser,
} from './moderation.service.server';
import { approveAccount, approveContent } from './spam-hold.service.server';
import type { PendingDelete } from './components/moderation-controls';

/**
 * What a moderation form posted: done, refused with a message for the toast, or a Delete that
 * has not been confirmed yet (the page asks, docs/decisions/061).
 */
export type ModerationFormResult = { done: true } | { done: false; error: string } | { confirmDelete: PendingDelete };

/**
 * Every moderation button of the pages (/moderation, a writer's page): the form's fields, read
 * with the schemas the API uses, handed to the use cases, which check the role and the rank.
 */
export async function runModerationForm(ctx: ServiceContext, form: FormData): Promise<ModerationFormResult> {
  const field = (name: string) => String(form.get(name) ?? '');
  const targetPath = field('targetPath');
  const type = MODERATED_CONTENT[targetPath as keyof typeof MODERATED_CONTENT];
  const intent = field('intent');
  if (intent === 'grant') {
    const parsed = GrantModeratorSchema.safeParse({ email: field('email'), reason: field('reason') || undefined });
    if (!parsed.success) return { done: false, error: MESSAGES.moderationReasonLabel };
    await grantModerator(ctx, parsed.data);
    return { done: true };
  }
  const parsed = ModerationReasonSchema.safeParse({ reason: field('reason') });
  if (!parsed.success) return { done: false, error: MESSAGES.moderationReasonLabel };
  const reason = parsed.data;
  if (intent === 'delete' && type && field('confirmed') !== 'yes') {
    return { confirmDelete: { targetPath: targetPath as PendingDelete['targetPath'], targetId: field('targetId'), reason: reason.reason } };
  }
  if (intent === 'suspend') {
    const suspend = SuspendFormSchema.safeParse({ ...reason, period: field('period') || undefined });
    if (!suspend.success) return { done: false, error: MESSAGES.moderationPeriodMissing };
    await suspendUser(ctx, field('userId'), suspend.data);
    return { done: true };
  }
  if (intent === 'hide' && type) await hideContent(ctx, type, field('targetId'), reason);
  else if (intent === 'restore' && type) await restoreContent(ctx, type, field('targetId'), reason);
  else if (intent === 'delete' && type) await deleteContent(ctx, type, field('targetId'), reason);
  else if (intent === 'approve' && type) await approveContent(ctx, type, field('targetId'), reason);
  else if (intent === 'approve-account') await approveAccount(ctx, field('userId'), reason);
  else if (intent === 'unsuspend') await unsuspendUser(ctx, field('userId'), reason);
  else if (intent === 'dismiss') for (const id of form.getAll('reportId')) await dismissReport(ctx, String(id), reason);
  else if (intent === 'comment-ban') await banFromCommenting(ctx, field('userId'), reason);
  else if (intent === 'revoke') await revokeModerator(ctx, field('userId'), reason);
  else return { done: false, error: MESSAGES.moderationReasonLabel };
  return { done: true };
}
