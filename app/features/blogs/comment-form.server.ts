import { redirect } from 'react-router';
import { AppError } from '~/lib/core/errors';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { backWithRefusal } from '~/lib/page/page-errors.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { CommentSchema, fieldErrors } from './blogs.schema';
import { deleteComment, editComment, replyToComment, setCommentHidden, setCommentLiked, setCommentPinned } from './comments.service.server';

/**
 * The comment tools a blog page and a thread page post (without JavaScript too), each with the
 * comment's id: what it does, and the toast it leaves ('' for none: a like speaks for itself).
 */
const TOOLS = {
  reply: async (ctx: ServiceContext, id: string, form: FormData) => (await replyToComment(ctx, id, commentText(form)), MESSAGES.replyPosted),
  'edit-comment': async (ctx: ServiceContext, id: string, form: FormData) => (await editComment(ctx, id, commentText(form)), MESSAGES.commentUpdated),
  'delete-comment': async (ctx: ServiceContext, id: string) => (await deleteComment(ctx, id), MESSAGES.commentDeleted),
  'like-comment': async (ctx: ServiceContext, id: string) => (await setCommentLiked(ctx, id, true), ''),
  'unlike-comment': async (ctx: ServiceContext, id: string) => (await setCommentLiked(ctx, id, false), ''),
  'pin-comment': async (ctx: ServiceContext, id: string) => (await setCommentPinned(ctx, id, true), MESSAGES.commentPinned),
  'unpin-comment': async (ctx: ServiceContext, id: string) => (await setCommentPinned(ctx, id, false), MESSAGES.commentUnpinned),
  'hide-comment': async (ctx: ServiceContext, id: string) => (await setCommentHidden(ctx, id, true), MESSAGES.commentHidden),
  'unhide-comment': async (ctx: ServiceContext, id: string) => (await setCommentHidden(ctx, id, false), MESSAGES.commentUnhidden),
};
export type CommentTool = keyof typeof TOOLS;

/** The same schema as the API's; a refusal carries the field's message. */
function commentText(form: FormData) {
  const parsed = CommentSchema.safeParse({ commentText: form.get('commentText') ?? '' });
  if (!parsed.success) throw new AppError('bad_request', fieldErrors(parsed.error).commentText ?? MESSAGES.commentError, 'commentText');
  return parsed.data;
}

export const isCommentTool = (intent: unknown): intent is CommentTool => typeof intent === 'string' && Object.hasOwn(TOOLS, intent);

/** Runs the tool and goes `back` (the comment's place on the page) with its toast, or with the refusal. */
export async function runCommentTool(ctx: ServiceContext, intent: CommentTool, form: FormData, back: string): Promise<Response> {
  const id = String(form.get('commentId') ?? '');
  let text: string;
  try {
    text = await TOOLS[intent](ctx, id, form);
  } catch (error) {
    return backWithRefusal(error, back);
  }
  return redirect(back, text ? { headers: withFlash({ type: 'toast', kind: 'success', text, duration: FEEDBACK_MS.success }) } : undefined);
}
