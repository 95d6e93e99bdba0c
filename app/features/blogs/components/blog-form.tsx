import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Form, useLocation, useNavigation, useSubmit } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { SignedOutNotice } from '~/components/signed-out-notice';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { useFreshErrors } from '~/components/use-fresh-errors';
import { ACCEPTED_IMAGE_TYPES } from '~/features/images/images.schema';
import { PHOTO_FOCUS_AUTO, PHOTO_FOCUS_CHOICES, type PhotoFocusChoice } from '~/features/images/photo-focus';
import { uploadImageWithProgress } from '~/features/images/upload-client';
import { MESSAGES } from '~/lib/texts/messages';
import { BLOG_AVAILABILITY, BLOG_CATEGORIES, BLOG_LIMITS, BLOG_TYPES, BlogFormSchema, fieldErrors } from '../blogs.schema';
import { BodyEditor } from './body-editor';
import { PhotoFocusField } from './photo-focus-field';
import { TagsField } from '~/features/tags/components/tags-field';
import { useDraft } from './use-draft';

export type BlogFormValues = Partial<Record<'title' | 'category' | 'type' | 'short_description' | 'long_description' | 'details' | 'availability' | 'photo_focus' | 'mail', string>> & { tags?: string | readonly string[] };

export interface BlogFormActionData {
  errors?: Record<string, string>;
  values?: BlogFormValues;
  /** A failure of the save itself, shown as the product's 'Upload Failed' / 'Update Failed'. */
  formError?: string;
  /** Set when the session had ended before the form was sent: the login page, returning here. */
  signIn?: string;
}

export interface BlogFormProps {
  mode: 'add' | 'edit';
  author: { email: string; name: string };
  defaults?: BlogFormValues;
  actionData?: BlogFormActionData;
  maxUploadMb: number;
  /** Edit blog: the photo the blog has, with its focus as the presenter gives it (`photo_position`). */
  currentPhoto?: { src: string; position: string | null } | null;
}

const focusChoice = (value: string | undefined): PhotoFocusChoice =>
  PHOTO_FOCUS_CHOICES.find((choice) => choice === value) ?? PHOTO_FOCUS_AUTO;

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-error" data-testid={id}>
      {message}
    </p>
  ) : null;
}

/** A required pick-list of the form: its label, a placeholder no one can pick, and its error. */
function ChoiceField({ field, label, placeholder, choices, value, error }: { field: { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }; label: string; placeholder: string; choices: readonly string[]; value?: string; error?: string }) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block font-semibold">{label}</label>
      <select {...field} required defaultValue={value ?? ''} className="select w-full">
        <option value="" disabled>{placeholder}</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>{choice}</option>
        ))}
      </select>
      <FieldError id={`${field.name}-error`} message={error} />
    </div>
  );
}

/**
 * Add blog and Edit blog (docs/product.md#add-and-edit-a-blog). Posts multipart to the route's action, so it works without
 * JavaScript (the action runs the image pipeline itself). With JavaScript the fields are checked
 * first with the same schema, the image goes to /api/images with a progress bar, and only its
 * URL is sent with the rest.
 */
export function BlogForm({ mode, author, defaults = {}, actionData, maxUploadMb, currentPhoto = null }: BlogFormProps) {
  const { dialog } = useFeedback();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>(actionData?.errors ?? {});
  const [progress, setProgress] = useState<number | null>(null);
  const [bodyUploading, setBodyUploading] = useState(false);
  const onBodyUploading = useCallback((uploading: boolean) => setBodyUploading(uploading), []);
  const values = { ...defaults, ...actionData?.values };
  const failureTitle = mode === 'add' ? MESSAGES.addBlogErrorTitle : MESSAGES.updateBlogErrorTitle;
  const busy = progress !== null || bodyUploading || navigation.state === 'submitting';
  const fresh = useFreshErrors(errors);

  const location = useLocation();
  const draft = useDraft(formRef, location.pathname, { restore: !actionData });
  const [thumbnail, setThumbnail] = useState<string | null>(null);

  useEffect(() => setHydrated(true), []);
  useEffect(() => () => void (thumbnail && URL.revokeObjectURL(thumbnail)), [thumbnail]);
  const { blocker } = draft;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void dialog({ title: 'Leave without saving?', text: 'Your text stays as a draft in this browser until you log out.', kind: 'warning', confirmText: 'Leave', cancelText: 'Stay' }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker, dialog]);
  useFocusFirstInvalid(formRef, errors);
  useEffect(() => setErrors(actionData?.errors ?? {}), [actionData]);
  useEffect(() => {
    if (actionData?.formError) void dialog({ title: failureTitle, text: actionData.formError, kind: 'error' });
  }, [actionData, dialog, failureTitle]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get('image');
    const hasFile = file instanceof File && file.size > 0;
    const parsed = BlogFormSchema.safeParse(Object.fromEntries([...data].filter(([, v]) => typeof v === 'string')));
    const found = parsed.success ? {} : fieldErrors(parsed.error);
    if (mode === 'add' && !hasFile) found.image = MESSAGES.fieldRequired;
    if (hasFile && file.size > maxUploadMb * 1024 * 1024) found.image = `Must be at most ${maxUploadMb} MB`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    data.delete('image');
    if (hasFile) {
      setProgress(0);
      try {
        data.set('photo', await uploadImageWithProgress(file, setProgress));
      } catch {
        setProgress(null);
        setErrors({ image: MESSAGES.imageUploadFailed });
        void dialog({ title: failureTitle, text: MESSAGES.imageUploadFailed, kind: 'error' });
        return;
      }
    }
    draft.onSave();
    submit(data, { method: 'post', encType: 'multipart/form-data' });
  }

  useEffect(() => {
    if (navigation.state === 'idle') setProgress(null);
  }, [navigation.state]);

  const shown = fresh.errors;
  const describedBy = (name: string, hint?: string) => [hint, shown[name] ? `${name}-error` : null].filter(Boolean).join(' ') || undefined;
  const common = (name: string, hint?: string) => ({
    id: name,
    name,
    'aria-invalid': shown[name] ? true : undefined,
    'aria-describedby': describedBy(name, hint),
  });

  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={onSubmit}
      onChange={draft.onChange}
      onInput={fresh.onInput}
      className="mt-8 grid grid-cols-1 gap-5 md:grid-cols-2"
      key={JSON.stringify(actionData?.values ?? null)}
      data-testid="blog-form"
    >
      {actionData?.formError ? (
        <div role="alert" className="alert alert-error md:col-span-2">
          <strong>{failureTitle}</strong> {actionData.signIn ? <SignedOutNotice signIn={actionData.signIn} /> : <span>{actionData.formError}</span>}
        </div>
      ) : null}

      {draft.restored ? (
        <div className="alert md:col-span-2" data-testid="draft-restored">
          <span>Your draft from this browser is back.</span>
          <button type="button" className="btn btn-sm" onClick={draft.discard}>Discard draft</button>
        </div>
      ) : null}

      <div className="md:col-span-2">
        <label htmlFor="title" className="mb-1 block font-semibold">Title</label>
        <input {...common('title')} type="text" required maxLength={BLOG_LIMITS.title} defaultValue={values.title} className="input w-full" />
        <FieldError id="title-error" message={shown.title} />
      </div>

      <ChoiceField field={common('category')} label="Category" placeholder="Choose a category" choices={BLOG_CATEGORIES} value={values.category} error={shown.category} />

      <ChoiceField field={common('type')} label="Type" placeholder="Choose a type" choices={BLOG_TYPES} value={values.type} error={shown.type} />
      <TagsField defaultValue={values.tags} error={shown.tags} />

      <div className="md:col-span-2">
        <label htmlFor="short_description" className="mb-1 block font-semibold">Short description</label>
        <textarea {...common('short_description')} required rows={2} maxLength={BLOG_LIMITS.short_description} defaultValue={values.short_description} className="textarea w-full" />
        <FieldError id="short_description-error" message={shown.short_description} />
      </div>

      <div className="md:col-span-2">
        <label htmlFor="long_description" className="mb-1 block font-semibold">Long description</label>
        <BodyEditor
          field={common('long_description', 'long_description-hint')}
          defaultValue={values.long_description}
          maxLength={BLOG_LIMITS.long_description}
          maxUploadMb={maxUploadMb}
          enhanced={hydrated}
          onUploadingChange={onBodyUploading}
        />
        <p id="long_description-hint" className="mt-1 text-sm opacity-75">
          Markdown (GitHub-flavoured) is supported.{hydrated ? ' Drop or paste pictures into the text to add them.' : ''}
        </p>
        <FieldError id="long_description-error" message={shown.long_description} />
      </div>

      <div className="md:col-span-2">
        <label htmlFor="details" className="mb-1 block font-semibold">Details</label>
        <textarea {...common('details', 'details-hint')} rows={3} maxLength={BLOG_LIMITS.details} defaultValue={values.details} className="textarea w-full" />
        <p id="details-hint" className="mt-1 text-sm opacity-75">Optional.</p>
        <FieldError id="details-error" message={shown.details} />
      </div>

      <div>
        <label htmlFor="image" className="mb-1 block font-semibold">Image</label>
        <input
          {...common('image', 'image-hint')}
          type="file"
          accept={ACCEPTED_IMAGE_TYPES}
          required={mode === 'add'}
          className="file-input w-full"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            setThumbnail(file && file.type.startsWith('image/') ? URL.createObjectURL(file) : null);
          }}
        />
        {/* What is accepted, said before choosing rather than learned by failing. */}
        <p id="image-hint" className="mt-1 text-sm opacity-75">
          JPEG, PNG, WebP or GIF, up to {maxUploadMb} MB.{mode === 'edit' ? ` ${MESSAGES.keepCurrentImage}` : ''}
        </p>
        {progress !== null ? (
          <progress className="progress progress-primary mt-2 w-full" value={progress} max={100} aria-label="Image upload progress" data-testid="upload-progress" />
        ) : null}
        <FieldError id="image-error" message={shown.image} />
        <PhotoFocusField
          defaultValue={focusChoice(values.photo_focus)}
          preview={
            thumbnail
              ? { src: thumbnail, alt: 'The chosen photo', testId: 'photo-thumbnail' }
              : currentPhoto
                ? { src: currentPhoto.src, alt: 'Current image', testId: 'current-photo' }
                : null
          }
          // The current photo's computed point; a newly chosen file's is found when it is uploaded.
          autoPosition={thumbnail ? null : (currentPhoto?.position ?? null)}
          enhanced={hydrated}
          error={shown.photo_focus}
        />
      </div>

      <ChoiceField field={common('availability')} label="Availability" placeholder="Choose availability" choices={BLOG_AVAILABILITY} value={values.availability} error={shown.availability} />

      {/* Beside the product's fields: what this post's newsletter and follower mails carry (docs/decisions/066). */}
      <div>
        <label htmlFor="mail" className="mb-1 block font-semibold">By mail</label>
        <select {...common('mail')} defaultValue={values.mail ?? 'post'} className="select w-full">
          <option value="post">The whole post</option>
          <option value="teaser">A teaser with a link</option>
        </select>
        <FieldError id="mail-error" message={shown.mail} />
      </div>

      <div>
        <label htmlFor="email" className="mb-1 block font-semibold">Email</label>
        <input id="email" type="email" value={author.email} readOnly className="input w-full bg-base-200" />
      </div>

      <div>
        <label htmlFor="name" className="mb-1 block font-semibold">Name</label>
        <input id="name" type="text" value={author.name} readOnly className="input w-full bg-base-200" />
      </div>

      <div className="md:col-span-2">
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
          {mode === 'add' ? 'Add Blog' : 'Update Blog'}
        </button>
      </div>
    </Form>
  );
}
