import { discardImage, fileBytes, megabytes, readUploadForm, uploadImage } from '~/features/images/images.service.server';
import { imageFailure } from '~/features/images/image-errors';
import { AppError, isAppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import { PhotoUrlSchema } from '~/features/images/photo-url.schema';
import { BlogFormSchema, type CreateBlogInput, fieldErrors } from './blogs.schema';
import { DraftIdSchema } from './drafts.schema';
import type { BlogFormActionData, BlogFormValues } from './components/blog-form';

/** Room for the text fields beside the image (up to 100,000 characters of Markdown, in UTF-8). */
const TEXT_FIELDS_BYTES = 1024 * 1024;

export type BlogFormResult =
  | {
      ok: true;
      input: Omit<CreateBlogInput, 'photo'> & { photo?: string };
      /** The photo was stored by this request. */
      uploaded: boolean;
      /** The canvas's draft this form was written in, and the time to publish it at (docs/decisions/070). */
      draft?: string;
      publishAt?: string;
    }
  | { ok: false; status: number; data: BlogFormActionData };

/**
 * Reads the Add/Edit blog form for a route action: the same schema as the API, then the image —
 * an URL already uploaded by the script, or the file itself when the form was posted without
 * JavaScript (run through the same pipeline). The image is processed only once the text fields
 * are valid, so a refused form stores nothing.
 */
export async function readBlogForm(ctx: ServiceContext, config: { MAX_UPLOAD_MB: number }, request: Request, mode: 'add' | 'edit'): Promise<BlogFormResult> {
  const maxBytes = megabytes(config.MAX_UPLOAD_MB);
  let form: FormData;
  try {
    form = await readUploadForm(request, maxBytes, TEXT_FIELDS_BYTES);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { ok: false, status: error.status, data: { errors: { image: MESSAGES.imageUploadFailed }, formError: MESSAGES.imageUploadFailed } };
  }
  const values = typedValues(form);
  const parsed = BlogFormSchema.safeParse(values);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);

  let photo: string | undefined;
  let uploaded = false;
  const sent = form.get('photo');
  if (typeof sent === 'string' && sent) {
    const url = PhotoUrlSchema.safeParse(sent);
    if (url.success) photo = url.data;
    else errors.image = MESSAGES.imageUploadFailed;
  } else if (Object.keys(errors).length === 0) {
    try {
      const bytes = await fileBytes(form, 'image', maxBytes);
      if (bytes) {
        photo = (await uploadImage(ctx, bytes)).url;
        uploaded = true;
      } else if (mode === 'add') errors.image = MESSAGES.fieldRequired;
    } catch (error) {
      if (!isAppError(error)) throw error;
      // The image store failing is not the writer's fault, nor is the upload limit: say so, with its status.
      if (error.status >= 500 || error.code === 'rate_limited') return { ok: false, status: error.status, data: { errors: { image: error.message }, formError: error.message, values } };
      errors.image = MESSAGES.imageUploadFailed;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, status: 400, data: { errors, values } };
  const draft = DraftIdSchema.safeParse({ id: form.get('draft') });
  const publishAt = form.get('publish_at');
  return { ok: true, input: { ...parsed.data, ...(photo ? { photo } : {}) }, uploaded, ...(draft.success ? { draft: draft.data.id } : {}), ...(typeof publishAt === 'string' && publishAt ? { publishAt } : {}) };
}

const NOT_VALUES = new Set(['photo', 'draft', 'publish_at', 'publish_when']);
const typedValues = (form: FormData): BlogFormValues =>
  Object.fromEntries([...form].filter(([key, v]) => typeof v === 'string' && !NOT_VALUES.has(key))) as BlogFormValues;

/**
 * The form's typed text only, for showing it again when it cannot be saved (the session ended
 * before it was sent): no image is processed or stored.
 */
export async function readBlogFormValues(config: { MAX_UPLOAD_MB: number }, request: Request): Promise<BlogFormValues> {
  try {
    return typedValues(await readUploadForm(request, megabytes(config.MAX_UPLOAD_MB), TEXT_FIELDS_BYTES));
  } catch (error) {
    if (!isAppError(error)) throw error;
    return {};
  }
}

/**
 * Saves a read form with `save` (create or update). When the save fails, an image this request
 * stored is removed again, so a failed write leaves no orphan behind.
 */
export async function saveBlogForm<T>(
  ctx: ServiceContext,
  form: Extract<BlogFormResult, { ok: true }>,
  save: (input: Extract<BlogFormResult, { ok: true }>['input']) => Promise<T>,
): Promise<T> {
  try {
    return await save(form.input);
  } catch (error) {
    if (form.uploaded && form.input.photo) await discardImage(ctx, form.input.photo);
    // A photo address that could not be made ours (decision 050): the product's text, then why.
    if (isAppError(error) && error.field === 'photo') throw new AppError(error.code, imageFailure(error.message), 'image');
    throw error;
  }
}
