import { useRef } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { AuthCard, FormError } from '~/features/users/components/auth-card';
import { FormField } from '~/features/users/components/form-field';
import { requestPasswordReset } from '~/features/users/account.service.server';
import { fieldErrors, ForgotPasswordSchema } from '~/features/users/users.schema';
import { MESSAGES } from '~/lib/texts/messages';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/forgot-password';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Forgot password') }];

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'none', limits: [RATE_LIMITS.resetRequest, RATE_LIMITS.resetRequestEmail], input: ForgotPasswordSchema },
  async ({ request }, { ctx, input }) => {
    const form = Object.fromEntries(await request.formData());
    const email = typeof form.email === 'string' ? form.email : '';
    const parsed = input.safeParse(form);
    if (!parsed.success) return data({ sent: false, email, error: fieldErrors(parsed.error).email ?? null, formError: null }, 400);
    const outcome = await requestPasswordReset(ctx, parsed.data.email);
    if (!outcome.ok) return data({ sent: false, email, error: null, formError: outcome.message }, outcome.status);
    return { sent: true, email, error: null, formError: null };
  },
);

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, actionData?.error ? actionData : null);
  return (
    <AuthCard title={MESSAGES.forgotPasswordHeading} footer={<Link to="/login" className="link link-primary font-semibold">{MESSAGES.logIn}</Link>}>
      {actionData?.sent ? (
        <div role="status" className="alert alert-success" data-testid="reset-sent">
          <div>
            <h2 className="text-lg font-bold">{MESSAGES.resetLinkSentTitle}</h2>
            <p>{MESSAGES.resetLinkSentText}</p>
          </div>
        </div>
      ) : (
        <Form ref={formRef} method="post" noValidate className="flex flex-col gap-3">
          <p className="text-sm opacity-90">{MESSAGES.forgotPasswordIntro}</p>
          <FormField label="Email" name="email" type="email" autoComplete="email" defaultValue={actionData?.email} hint={MESSAGES.emailHint} error={actionData?.error ?? undefined} required />
          <button type="submit" className="btn btn-primary w-full" disabled={submitting}>{MESSAGES.sendResetLink}</button>
          <FormError message={actionData?.formError} />
        </Form>
      )}
    </AuthCard>
  );
}
