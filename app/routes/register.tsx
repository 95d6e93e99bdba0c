import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { useFreshErrors } from '~/components/use-fresh-errors';
import { ACCEPTED_IMAGE_TYPES } from '~/features/images/images.schema';
import { fileBytes, megabytes, readUploadForm } from '~/features/images/images.service.server';
import { AuthCard, FormError } from '~/features/users/components/auth-card';
import { FormField } from '~/features/users/components/form-field';
import { PasswordField } from '~/features/users/components/password-field';
import { SocialLogin } from '~/features/users/components/social-login';
import { signUp } from '~/features/users/account.service.server';
import { fieldErrors, imageFailure, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, SignUpSchema } from '~/features/users/users.schema';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { safeRedirectPath } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/register';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Sign Up') }];

type Field = 'email' | 'name' | 'password' | 'terms' | 'image';
const NO_ERRORS: Failure['errors'] = {};
type Failure = { errors: Partial<Record<Field, string>>; formError: string | null; values: { email: string; name: string } };

export function loader({ request, context }: Route.LoaderArgs) {
  if (context.user) throw redirect('/');
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'));
  return { providers: context.service.auth.providers(), redirectTo };
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'none', limits: [RATE_LIMITS.signUp, RATE_LIMITS.upload], input: SignUpSchema },
  async ({ request, context }, { ctx, input }) => {
    const maxBytes = megabytes(context.deps.config.MAX_UPLOAD_MB);
    const fail = (failure: Partial<Failure>, status: number) =>
      data({ errors: {}, formError: null, values: { email: '', name: '' }, ...failure } as Failure, status);
    let form: FormData;
    try {
      form = await readUploadForm(request, maxBytes);
    } catch (error) {
      const refused = pageRefusal(error);
      return fail({ formError: refused.message }, refused.status);
    }
    const text = (name: string) => (typeof form.get(name) === 'string' ? String(form.get(name)) : '');
    const values = { email: text('email'), name: text('name') };
    const parsed = input.safeParse({ email: text('email'), name: text('name'), password: text('password'), terms: form.get('terms') ?? undefined });
    if (!parsed.success) return fail({ errors: fieldErrors(parsed.error), values }, 400);

    let image: Buffer | null;
    try {
      image = await fileBytes(form, 'image', maxBytes);
    } catch (error) {
      const refused = pageRefusal(error);
      return fail({ errors: { image: imageFailure(refused.message) }, values }, refused.status);
    }
    const outcome = await signUp(ctx, { ...parsed.data, image });
    if (!outcome.ok) {
      const failure = outcome.field === 'image' ? { errors: { image: imageFailure(outcome.message) } } : { formError: outcome.message };
      return fail({ ...failure, values }, outcome.status);
    }
    const headers = withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.signupSuccess, timer: FEEDBACK_MS.success }, outcome.cookies);
    return redirect('/', { headers });
  },
);

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { providers, redirectTo } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const { dialog } = useFeedback();
  const [clientErrors, setClientErrors] = useState<Failure['errors'] | null>(null);
  const answered = clientErrors ?? actionData?.errors ?? NO_ERRORS;
  const fresh = useFreshErrors(answered);
  const errors = fresh.errors;
  // "Already exists" is about the email: that field is marked, and the message goes once it changes.
  const emailTaken = actionData?.formError === MESSAGES.emailTaken && !clientErrors && !fresh.edited('email');
  const formError = actionData?.formError === MESSAGES.emailTaken && !emailTaken ? null : actionData?.formError;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, clientErrors ?? actionData?.errors);

  useEffect(() => {
    setClientErrors(null);
    if (actionData?.formError) void dialog({ title: MESSAGES.signupErrorTitle, text: actionData.formError, kind: 'error' });
  }, [actionData, dialog]);

  const validate = (event: React.FormEvent<HTMLFormElement>) => {
    const form = new FormData(event.currentTarget);
    const result = SignUpSchema.safeParse({ ...Object.fromEntries(form), terms: form.get('terms') ?? undefined });
    if (result.success) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(fieldErrors(result.error));
  };

  const search = redirectTo === '/' ? '' : `?${new URLSearchParams({ redirectTo })}`;
  return (
    <AuthCard
      title="Sign Up"
      footer={
        <>
          {MESSAGES.haveAccount}{' '}
          <Link to={`/login${search}`} className="link link-primary font-semibold">{MESSAGES.logIn}</Link>
        </>
      }
    >
      <Form ref={formRef} method="post" encType="multipart/form-data" noValidate onSubmit={validate} onInput={fresh.onInput} className="flex flex-col gap-3" data-testid="register-form">
        <FormField
          label="Email"
          name="email"
          id="register-email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.values.email}
          hint={MESSAGES.emailHint}
          error={errors.email}
          required
          {...(emailTaken && !errors.email ? { 'aria-invalid': true, 'aria-describedby': 'register-error register-email-hint' } : {})}
        />
        <FormField label="Name" name="name" autoComplete="name" maxLength={NAME_MAX_LENGTH} defaultValue={actionData?.values.name} error={errors.name} required />
        <FormField label="Profile image" name="image" type="file" accept={ACCEPTED_IMAGE_TYPES} className="file-input file-input-bordered px-0" error={errors.image} />
        <PasswordField autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} hint={MESSAGES.passwordHint} error={errors.password} />
        <div>
          <label className="label cursor-pointer justify-start gap-3">
            <input
              type="checkbox"
              name="terms"
              className={`checkbox checkbox-primary ${errors.terms ? 'checkbox-error' : ''}`}
              aria-invalid={errors.terms ? true : undefined}
              aria-describedby={errors.terms ? 'terms-error' : undefined}
            />
            <span className="label-text text-base-content">{MESSAGES.acceptTermsLabel}</span>
          </label>
          {errors.terms ? <p id="terms-error" className="mt-1 text-sm font-medium text-error" data-testid="terms-error">{errors.terms}</p> : null}
        </div>
        <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
          {MESSAGES.signUp}
        </button>
        <FormError id="register-error" message={formError} />
      </Form>
      <SocialLogin providers={providers} mode="register" redirectTo={redirectTo} />
    </AuthCard>
  );
}
