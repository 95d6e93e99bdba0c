import { useRef } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { AuthCard, FormError } from '~/features/users/components/auth-card';
import { PasswordField } from '~/features/users/components/password-field';
import { resetPassword } from '~/features/users/account.service.server';
import { fieldErrors, PASSWORD_MAX_LENGTH, ResetPasswordSchema } from '~/features/users/users.schema';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/reset-password';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Choose a new password') }];

/** better-auth checked the mailed link and sent the visitor here with ?token= or ?error=. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get('token');
  return { token: url.searchParams.get('error') ? null : token };
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'none', limits: [RATE_LIMITS.reset], input: ResetPasswordSchema },
  async ({ request }, { ctx, input }) => {
    const form = Object.fromEntries(await request.formData());
    const parsed = input.safeParse(form);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return data({ error: errors.password ?? null, formError: errors.token ?? null }, 400);
    }
    const outcome = await resetPassword(ctx, parsed.data);
    if (!outcome.ok) return data({ error: null, formError: outcome.message }, outcome.status);
    const headers = withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.passwordResetTitle, text: MESSAGES.passwordResetText }, outcome.cookies);
    return redirect('/login', { headers });
  },
);

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, actionData?.error ? actionData : null);
  const footer = <Link to="/forgot-password" className="link link-primary font-semibold">{MESSAGES.forgotPassword}</Link>;
  if (!loaderData.token) {
    return (
      <AuthCard title={MESSAGES.resetPasswordHeading} footer={footer}>
        <FormError message={MESSAGES.resetLinkInvalid} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={MESSAGES.resetPasswordHeading} footer={footer}>
      <Form ref={formRef} method="post" noValidate className="flex flex-col gap-3">
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField label={MESSAGES.newPassword} autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} hint={MESSAGES.passwordHint} error={actionData?.error ?? undefined} />
        <button type="submit" className="btn btn-primary w-full" disabled={submitting}>{MESSAGES.saveNewPassword}</button>
        <FormError message={actionData?.formError} />
      </Form>
    </AuthCard>
  );
}
