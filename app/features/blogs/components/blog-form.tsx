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
import { type SaveState, useServerDraft } from './use-server-draft';

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
  /** The server draft the page opened with (docs/decisions/070); its values are in `defaults`. */
  draft?: { id: string; photo: string | null; updatedAt: string } | null;
  /** The signed-in writer's id, so a save never lands in another account's drafts. */
  writerId: string;
  /** Edit blog: the post the draft is an edit of. */
  blogId?: string;
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
export function BlogForm({ mode, author, defaults = {}, actionData, maxUploadMb, currentPhoto = null, draft: openedDraft = null, writerId, blogId }: BlogFormProps) {
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
  const serverDraft = useServerDraft(formRef, { draftId: openedDraft?.id ?? null, blogId, photo: openedDraft?.photo ?? null, writerId });
  const [draftBack, setDraftBack] = useState(Boolean(openedDraft) && !actionData);
  const [thumbnail, setThumbnail] = useState<string | null>(null);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const panelRef = useRef<HTMLDetailsElement>(null);
  // The side panel folds on a phone once the page runs; it opens by itself when a field in it is refused.
  useEffect(() => {
    if (panelRef.current && window.matchMedia('(max-width: 1023px)').matches) panelRef.current.open = false;
  }, []);
  useEffect(() => {
    if (panelRef.current && Object.keys(errors).some((name) => name !== 'title' && name !== 'long_description')) panelRef.current.open = true;
  }, [errors]);

  useEffect(() => setHydrated(true), []);
  useEffect(() => () => void (thumbnail && URL.revokeObjectURL(thumbnail)), [thumbnail]);
  const { blocker } = draft;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void dialog({ title: 'Leave without saving?', text: 'Your draft is kept on your profile; what you typed in the last few seconds may not be.', kind: 'warning', confirmText: 'Leave', cancelText: 'Stay' }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker, dialog]);
  useFocusFirstInvalid(formRef, errors);
  useEffect(() => {
    setErrors(actionData?.errors ?? {});
    if (actionData) serverDraft.resume();
  }, [actionData, serverDraft.resume]);
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
    if (mode === 'add' && !hasFile && !serverDraft.photo) found.image = MESSAGES.fieldRequired;
    if (hasFile && file.size > maxUploadMb * 1024 * 1024) found.image = `Must be at most ${maxUploadMb} MB`;
    const publishAt = when === 'later' ? localTimeToIso(String(data.get('publish_local') ?? '')) : null;
    if (when === 'later' && !publishAt) found.publish_at = MESSAGES.fieldRequired;
    else if (publishAt && Date.parse(publishAt) <= Date.now()) found.publish_at = MESSAGES.scheduleInPast;
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    data.delete('image');
    data.delete('publish_local');
    if (publishAt) data.set('publish_at', publishAt);
    // Autosave stops; a cover it uploaded already for this very file is not sent twice.
    const kept = await serverDraft.stop(hasFile ? file : null);
    if (kept.draftId) data.set('draft', kept.draftId);
    if (kept.photo) data.set('photo', kept.photo);
    else if (hasFile) {
      setProgress(0);
      try {
        data.set('photo', await uploadImageWithProgress(file, setProgress));
      } catch {
        setProgress(null);
        serverDraft.resume();
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

  const onFormChange = () => {
    draft.onChange();
    serverDraft.onChange();
  };
  const discardDraft = () => {
    draft.discard();
    void serverDraft.discard();
    setDraftBack(false);
    setThumbnail(null);
    // Empty, not the opened draft's values (the form's defaults).
    const form = formRef.current;
    if (form && mode === 'add') for (const name of ['title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability'] as const) {
      const field = form.elements.namedItem(name);
      if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) field.value = '';
    }
  };
  const shownPhoto = thumbnail
    ? { src: thumbnail, alt: 'The chosen photo', testId: 'photo-thumbnail' }
    : serverDraft.photo
      ? { src: serverDraft.photo, alt: 'The photo kept with the draft', testId: 'draft-photo' }
      : currentPhoto
        ? { src: currentPhoto.src, alt: 'Current image', testId: 'current-photo' }
        : null;

  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={onSubmit}
      onChange={onFormChange}
      onInput={fresh.onInput}
      className="mt-6 grid grid-cols-1 items-start gap-x-10 gap-y-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_auto_1fr]"
      key={JSON.stringify(actionData?.values ?? null)}
      data-testid="blog-form"
    >
      <div className="space-y-3 empty:hidden lg:col-span-2 lg:row-start-1">
      {actionData?.formError ? (
        <div role="alert" className="alert alert-error">
          <strong>{failureTitle}</strong> {actionData.signIn ? <SignedOutNotice signIn={actionData.signIn} /> : <span>{actionData.formError}</span>}
        </div>
      ) : null}

      {draft.restored || draftBack ? (
        <div className="alert" data-testid="draft-restored">
          <span>{MESSAGES.draftBack}</span>
          <button type="button" className="btn btn-sm" onClick={discardDraft}>Discard draft</button>
        </div>
      ) : null}
      </div>

      {/* The canvas: the title and the body first, large, in the reading column's type (docs/decisions/070). */}
      <div className="mx-auto w-full max-w-[42rem] space-y-6 lg:col-start-1 lg:row-start-2" data-testid="canvas">
        <div>
          <label htmlFor="title" className="mb-1 block text-sm font-semibold opacity-80">Title</label>
          <input {...common('title')} type="text" required maxLength={BLOG_LIMITS.title} defaultValue={values.title} placeholder="Your title" className="input input-lg h-auto w-full py-2 font-serif text-3xl font-bold leading-tight sm:text-4xl" />
          <FieldError id="title-error" message={shown.title} />
        </div>

        <div>
          <label htmlFor="long_description" className="mb-1 block text-sm font-semibold opacity-80">Long description</label>
          <BodyEditor
            field={common('long_description', 'long_description-hint')}
            defaultValue={values.long_description}
            maxLength={BLOG_LIMITS.long_description}
            maxUploadMb={maxUploadMb}
            enhanced={hydrated}
            onUploadingChange={onBodyUploading}
            previewHead={() => previewHead(formRef.current)}
          />
          <p id="long_description-hint" className="mt-1 text-sm opacity-75">
            Markdown (GitHub-flavoured) is supported.{hydrated ? ' Drop or paste pictures into the text to add them.' : ''}
          </p>
          <FieldError id="long_description-error" message={shown.long_description} />
        </div>
      </div>

      {/* The product's other fields, with their labels, beside the canvas; folded on a phone. */}
      <details ref={panelRef} open className="rounded-box border border-base-300 bg-base-100 lg:col-start-2 lg:row-span-2 lg:row-start-2" data-testid="post-settings">
        <summary className="cursor-pointer list-none px-4 py-3 font-semibold marker:hidden">
          Post settings <span className="text-sm font-normal opacity-75">(category, type, summary, image, availability)</span>
        </summary>
        <div className="space-y-5 px-4 pb-5">
          <ChoiceField field={common('category')} label="Category" placeholder="Choose a category" choices={BLOG_CATEGORIES} value={values.category} error={shown.category} />

          <ChoiceField field={common('type')} label="Type" placeholder="Choose a type" choices={BLOG_TYPES} value={values.type} error={shown.type} />
          <TagsField defaultValue={values.tags} error={shown.tags} />

          <div>
            <label htmlFor="short_description" className="mb-1 block font-semibold">Short description</label>
            <textarea {...common('short_description')} required rows={3} maxLength={BLOG_LIMITS.short_description} defaultValue={values.short_description} className="textarea w-full" />
            <FieldError id="short_description-error" message={shown.short_description} />
          </div>

          <div>
            <label htmlFor="image" className="mb-1 block font-semibold">Image</label>
            <input
              {...common('image', 'image-hint')}
              type="file"
              accept={ACCEPTED_IMAGE_TYPES}
              required={mode === 'add' && !serverDraft.photo}
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
              preview={shownPhoto}
              // The current photo's computed point; a newly chosen file's is found when it is uploaded.
              autoPosition={thumbnail || serverDraft.photo ? null : (currentPhoto?.position ?? null)}
              enhanced={hydrated}
              error={shown.photo_focus}
            />
          </div>

          <ChoiceField field={common('availability')} label="Availability" placeholder="Choose availability" choices={BLOG_AVAILABILITY} value={values.availability} error={shown.availability} />

          {mode === 'add' && hydrated ? (
            <fieldset data-testid="publish-when">
              <legend className="mb-1 font-semibold">Publish</legend>
              <label className="flex items-center gap-2">
                <input type="radio" name="publish_when" value="now" className="radio radio-sm" checked={when === 'now'} onChange={() => setWhen('now')} /> Now
              </label>
              <label className="mt-1 flex items-center gap-2">
                <input type="radio" name="publish_when" value="later" className="radio radio-sm" checked={when === 'later'} onChange={() => setWhen('later')} /> At a time
              </label>
              {when === 'later' ? (
                <div className="mt-2">
                  <label htmlFor="publish_local" className="mb-1 block text-sm">Date and time (your time zone)</label>
                  <input {...common('publish_local')} aria-describedby={shown.publish_at ? 'publish_at-error' : undefined} aria-invalid={shown.publish_at ? true : undefined} type="datetime-local" className="input w-full" />
                  <FieldError id="publish_at-error" message={shown.publish_at} />
                </div>
              ) : null}
            </fieldset>
          ) : null}

          <div>
            <label htmlFor="details" className="mb-1 block font-semibold">Details</label>
            <textarea {...common('details', 'details-hint')} rows={3} maxLength={BLOG_LIMITS.details} defaultValue={values.details} className="textarea w-full" />
            <p id="details-hint" className="mt-1 text-sm opacity-75">Optional.</p>
            <FieldError id="details-error" message={shown.details} />
          </div>

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
        </div>
      </details>

      {/* After the panel on a phone (every field before sending), under the canvas on a desktop. */}
      <div className="mx-auto flex w-full max-w-[42rem] flex-wrap items-center gap-4 lg:col-start-1 lg:row-start-3">
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={busy}>
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
          {mode === 'add' ? 'Add Blog' : 'Update Blog'}
        </button>
        {hydrated ? <SaveStatus state={serverDraft.state} savedAt={serverDraft.savedAt ?? openedDraft?.updatedAt ?? null} /> : null}
      </div>
    </Form>
  );
}

/** The autosave's state, said where the writer looks after typing. */
function SaveStatus({ state, savedAt }: { state: SaveState; savedAt: string | null }) {
  const text =
    state === 'saving' ? MESSAGES.draftSaving
    : state === 'saved' ? MESSAGES.draftSaved
    : state === 'failed' ? MESSAGES.draftSaveFailed
    : state === 'unsaved' ? MESSAGES.draftUnsaved
    : savedAt ? MESSAGES.draftSaved
    : '';
  return (
    <p role="status" className="text-sm" data-testid="save-status" data-state={state}>
      {text}
      {text === MESSAGES.draftSaved && savedAt ? <span> · {new Date(savedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</span> : null}
    </p>
  );
}

/** What the preview shows above the body, as the post's page does. */
function previewHead(form: HTMLFormElement | null): { title: string; summary: string } {
  const read = (name: string) => {
    const field = form?.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : '';
  };
  return { title: read('title'), summary: read('short_description') };
}

/** A `datetime-local` value (the writer's own clock) as an instant; null when empty or unreadable. */
function localTimeToIso(value: string): string | null {
  if (!value) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}
