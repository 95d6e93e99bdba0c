import { useEffect, useMemo, useState } from 'react';
import { data, Form, redirect, useNavigation } from 'react-router';
import { z } from 'zod';
import { Avatar } from '~/components/avatar';
import { useFeedback } from '~/components/feedback';
import { useFreshErrors } from '~/components/use-fresh-errors';
import { uploadImage } from '~/features/images/images.service.server';
import { ACCEPTED_IMAGE_TYPES } from '~/features/images/images.schema';
import { fileBytes, megabytes, readUploadForm } from '~/features/images/images.service.server';
import { FormField } from '~/features/users/components/form-field';
import { AboutFields } from '~/features/users/components/about-fields';
import { useLocalDateTime } from '~/features/users/components/local-date-time';
import { getOwnProfile, updateOwnProfile } from '~/features/users/users.service.server';
import { WhileSuspended } from '~/features/moderation/components/while-suspended';
import { getOwnSuspension } from '~/kernel/standing.server';
import { imageFailure, NAME_MAX_LENGTH, UpdateProfileSchema } from '~/features/users/users.schema';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { signedOutPost, userOrSignedOutPost } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import { SignedOutNotice } from '~/components/signed-out-notice';
import type { Route } from './+types/update-profile';
import { userOrThrow401 } from '~/lib/core/service-context';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'My Profile') }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = userOrSignedOutPost(context, request);
  // The answer to a save sent after the session ended: the form shows what was typed.
  if (!user) return { profile: null, suspension: null };
  const [profile, suspension] = await Promise.all([getOwnProfile(context.service, user.email), getOwnSuspension(context.service)]);
  return { profile, suspension };
}

interface ProfileActionData {
  failed: true;
  reason: string | null;
  /** A refused bio, website or link, by field. */
  about?: Partial<Record<'bio' | 'website' | 'links', string>>;
  /** What was typed, when the session had ended before the save. */
  values?: { name: string };
  signIn?: string;
}

/** A signed-out save: the form again with the typed name, and a way back in. */
async function profileSignedOut({ context, request }: Route.ActionArgs) {
  const name = await readUploadForm(request, megabytes(context.deps.config.MAX_UPLOAD_MB)).then((form) => form.get('name'), () => null);
  return signedOutPost<ProfileActionData>(request, { failed: true, reason: null, values: { name: typeof name === 'string' ? name : '' } });
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.upload], input: UpdateProfileSchema, signedOut: profileSignedOut },
  async ({ context, request }, { ctx, input: schema }) => {
    const service = ctx;
    const user = userOrThrow401(ctx);
    const maxBytes = megabytes(context.deps.config.MAX_UPLOAD_MB);
    try {
      const form = await readUploadForm(request, maxBytes);
      const text = (field: string) => (typeof form.get(field) === 'string' ? form.get(field) : undefined);
      const input = schema.parse({ name: text('name'), bio: text('bio'), website: text('website'), links: text('links') });
      // A new picture is uploaded first, and only when one was chosen (docs/product.md#profile-form).
      const image = await fileBytes(form, 'photo', maxBytes);
      const photo = image ? (await uploadImage(service, image)).url : undefined;
      await updateOwnProfile(service, user.email, { ...input, photo });
    } catch (error) {
      // A zod refusal of the name is a 400; an image or other refusal says why; an outage is a 503.
      if (error instanceof z.ZodError) return data<ProfileActionData>({ failed: true, reason: null, about: aboutErrors(error) }, 400);
      const refused = pageRefusal(error);
      service.log.warn({ err: refused }, 'profile update failed');
      return data<ProfileActionData>({ failed: true, reason: imageFailure(refused.message) }, refused.status);
    }
    return redirect('/update-profile', { headers: withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.profileSavedTitle, text: MESSAGES.profileSavedText, timer: FEEDBACK_MS.success }) });
  },
);

/** Each refused about field's first message, shown under that field. */
function aboutErrors(error: z.ZodError): ProfileActionData['about'] {
  const about: NonNullable<ProfileActionData['about']> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if ((field === 'bio' || field === 'website' || field === 'links') && !about[field]) about[field] = issue.message;
  }
  return about;
}

export default function UpdateProfile({ loaderData: { profile, suspension }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const saving = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const { dialog } = useFeedback();
  const [preview, setPreview] = useState<string | null>(null);
  const lastLogin = useLocalDateTime(profile?.lastLoginAt ?? null);
  const signIn = actionData?.signIn;
  const typedName = actionData?.values?.name;
  // The picture's refusal is about that file: choosing another one clears it.
  const fresh = useFreshErrors(useMemo(() => ({ photo: actionData?.reason ?? undefined }), [actionData]));
  const photoInvalid = Boolean(fresh.errors.photo);

  useEffect(() => {
    if (!actionData?.failed) return;
    console.warn('profile update failed', actionData.reason);
    void dialog({ title: MESSAGES.profileErrorTitle, text: MESSAGES.profileErrorText, kind: 'error' });
  }, [actionData, dialog]);
  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);

  return (
    <section className="mx-auto w-full max-w-xl px-4 py-10">
      <WhileSuspended suspension={suspension}>
      <div className="card border border-base-300 bg-base-100 shadow-xl">
        <Form method="post" encType="multipart/form-data" onInput={fresh.onInput} className="card-body gap-4" data-testid="profile-form">
          <h1 className="text-center text-3xl font-bold tracking-tight">{MESSAGES.myProfile}</h1>
          <div className="flex flex-col items-center gap-2">
            <div className="rounded-full ring-4 ring-primary ring-offset-2 ring-offset-base-100">
              <Avatar src={preview ?? profile?.photo ?? null} alt={`Photo of ${profile?.name || MESSAGES.defaultDisplayName}`} size={112} />
            </div>
            <label className={`btn btn-outline btn-sm mt-2 focus-within:outline focus-within:outline-2 focus-within:outline-offset-2 ${photoInvalid ? 'btn-error' : ''}`}>
              {MESSAGES.change}
              <input
                type="file"
                name="photo"
                accept={ACCEPTED_IMAGE_TYPES}
                className="sr-only"
                aria-invalid={photoInvalid || undefined}
                aria-describedby={photoInvalid ? 'photo-hint profile-error' : 'photo-hint'}
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  if (!file) return setPreview(null);
                  // Previewed only once the browser can draw it: a file that is no picture keeps the old photo.
                  const url = URL.createObjectURL(file);
                  const probe = new Image();
                  probe.onload = () => setPreview(url);
                  probe.onerror = () => {
                    URL.revokeObjectURL(url);
                    setPreview(null);
                  };
                  probe.src = url;
                }}
              />
            </label>
            <p id="photo-hint" className="text-sm opacity-80">{MESSAGES.changePhotoHint}</p>
          </div>
          <FormField label="Full Name" name="name" autoComplete="name" maxLength={NAME_MAX_LENGTH} defaultValue={typedName ?? profile?.name ?? ''} />
          {profile ? (
            <>
              <FormField label="Email" name="email-shown" type="email" value={profile.email} readOnly className="cursor-default border-dashed bg-base-200" />
              <FormField label="Last Login" name="last-login-shown" value={lastLogin} readOnly className="cursor-default border-dashed bg-base-200" data-testid="last-login" data-iso={profile.lastLoginAt ?? undefined} />
            </>
          ) : null}
          <AboutFields profile={profile} errors={actionData?.about} />
          {actionData?.failed && !(actionData.reason && !photoInvalid) ? (
            <div role="alert" id="profile-error" className="alert alert-error" data-testid="profile-error">
              <span><strong>{MESSAGES.profileErrorTitle}</strong> {MESSAGES.profileErrorText}{actionData.reason ? ` (${actionData.reason})` : ''}{signIn ? <> <SignedOutNotice signIn={signIn} /></> : null}</span>
            </div>
          ) : null}
          <button type="submit" className="btn btn-primary w-full" disabled={saving}>
            {saving ? MESSAGES.saving : MESSAGES.saveChanges}
          </button>
        </Form>
      </div>
      </WhileSuspended>
    </section>
  );
}
