import { useEffect, useRef } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { useFreshErrors } from '~/components/use-fresh-errors';
import { AuthCard, FormError } from '~/features/users/components/auth-card';
import { FormField } from '~/features/users/components/form-field';
import { PasswordField } from '~/features/users/components/password-field';
import { SocialLogin } from '~/features/users/components/social-login';
import { PasskeySignIn } from '~/features/users/components/passkeys';
import { signIn, startSocialSignIn, verifySignInCode } from '~/features/users/account.service.server';
import { socialErrorMessage } from '~/features/users/social-errors';
import { hasTwoFactorChallenge } from '~/features/users/account.service.server';
import { fieldErrors, LogInSchema, PASSWORD_MAX_LENGTH } from '~/features/users/users.schema';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { safeRedirectPath } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/login';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Log In') }];

type FieldErrors = Partial<Record<'email' | 'password', string>>;

const loggedIn = (target: string, headers = new Headers()) =>
  redirect(target, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.loginSuccess, duration: FEEDBACK_MS.success }, headers) });

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get('redirectTo'));
  // The end of a social sign-in (popup or redirect): better-auth has set the session cookie.
  if (url.searchParams.get('social') === 'done' && context.user) return loggedIn(redirectTo);
  if (context.user) throw redirect('/');
  const providers = context.service.auth.providers();
  const provider = url.searchParams.get('provider');
  if (provider && providers.some((p) => p.id === provider)) return startSocialRedirect(context, provider, redirectTo);
  const error = url.searchParams.get('error');
  // The second step of a password sign-in for a two-factor account (docs/decisions/015).
  const step = url.searchParams.get('step') === 'code' && hasTwoFactorChallenge(request.headers.get('cookie')) ? 'code' : 'password';
  return { providers, redirectTo, step, socialError: error ? socialErrorMessage(error) : null };
}

/** The redirect flow (no JavaScript, or a blocked popup): a GET, so the CSP's form-action stays 'self'. */
async function startSocialRedirect(context: Route.LoaderArgs['context'], provider: string, redirectTo: string) {
  const started = await startSocialSignIn(context.service, provider, redirectTo);
  if (!started) throw redirect(`/login?${new URLSearchParams({ redirectTo, error: 'internal-error' })}`);
  return redirect(started.url, { headers: started.cookies });
}

const NO_ERRORS: FieldErrors = {};
type ActionData = { step: 'password' | 'code'; errors: FieldErrors; formError: string | null; values: { email: string } };
const answer = (body: ActionData, status: number) => data(body, status);

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'none', limits: [RATE_LIMITS.signIn, RATE_LIMITS.signInEmail, RATE_LIMITS.twoFactor], input: LogInSchema },
  async ({ request, context }, { ctx, input }) => {
    const form = Object.fromEntries(await request.formData());
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo') ?? String(form.redirectTo ?? ''));
    if (form.intent === 'code') return verifyCode(context, String(form.code ?? '').trim(), redirectTo);
    const values = { email: typeof form.email === 'string' ? form.email : '' };
    const parsed = input.safeParse(form);
    if (!parsed.success) return answer({ step: 'password', errors: fieldErrors(parsed.error) as FieldErrors, formError: null, values }, 400);
    const outcome = await signIn(ctx, parsed.data);
    if (!outcome.ok) return answer({ step: 'password', errors: {}, formError: outcome.message, values }, outcome.status);
    // The password was right; for a two-factor account better-auth set its short-lived two_factor cookie instead of a session.
    if (outcome.twoFactor) return redirect(`/login?${new URLSearchParams({ step: 'code', redirectTo })}`, { headers: outcome.cookies });
    return loggedIn(redirectTo, outcome.cookies);
  },
);

/** The code step: a TOTP code, or a recovery code (once each); limited like sign-in itself. */
async function verifyCode(context: Route.ActionArgs['context'], code: string, redirectTo: string) {
  const outcome = await verifySignInCode(context.service, code);
  if (outcome.ok) return loggedIn(redirectTo, outcome.cookies);
  const step = outcome.restart ? 'password' : 'code';
  return data<ActionData>({ step, errors: {}, formError: outcome.message, values: { email: '' } }, { status: outcome.status, headers: outcome.cookies });
}

export default function LogIn({ loaderData, actionData }: Route.ComponentProps) {
  const { providers, redirectTo, socialError } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const { dialog } = useFeedback();
  const formError = actionData?.formError ?? socialError;
  const step = actionData?.step ?? loaderData.step;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, actionData?.errors);
  const fresh = useFreshErrors(actionData?.errors ?? NO_ERRORS);

  useEffect(() => {
    if (!actionData?.formError) return;
    const text = actionData.step === 'code' ? actionData.formError : MESSAGES.loginErrorText;
    void dialog({ title: MESSAGES.loginErrorTitle, text, kind: 'error' });
  }, [actionData, dialog]);
  useEffect(() => {
    if (socialError) void dialog({ title: MESSAGES.loginErrorTitle, text: socialError, kind: 'error' });
  }, [socialError, dialog]);

  const search = redirectTo === '/' ? '' : `?${new URLSearchParams({ redirectTo })}`;
  if (step === 'code') return <CodeStep redirectTo={redirectTo} formError={formError} submitting={submitting} />;
  return (
    <AuthCard
      title="Log In"
      footer={
        <>
          {MESSAGES.noAccount}{' '}
          <Link to={`/register${search}`} className="link link-primary font-semibold">{MESSAGES.register}</Link>
        </>
      }
    >
      <Form ref={formRef} method="post" action={`/login${search}`} noValidate onInput={fresh.onInput} className="flex flex-col gap-3" data-testid="login-form">
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.values.email}
          error={fresh.errors.email}
          required
        />
        <PasswordField autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} error={fresh.errors.password} />
        <div className="text-right">
          <Link to="/forgot-password" className="link link-hover text-sm">{MESSAGES.forgotPassword}</Link>
        </div>
        <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
          {MESSAGES.logInButton}
        </button>
        <FormError message={formError} />
      </Form>
      <PasskeySignIn redirectTo={redirectTo} />
      <SocialLogin providers={providers} mode="login" redirectTo={redirectTo} />
    </AuthCard>
  );
}

/** The second step for a two-factor account: the app's code or a recovery code. */
function CodeStep({ redirectTo, formError, submitting }: { redirectTo: string; formError: string | null; submitting: boolean }) {
  return (
    <AuthCard title={MESSAGES.twoFactorCodeHeading} footer={<Link to="/login" className="link link-hover">{MESSAGES.twoFactorStartOver}</Link>}>
      <p>{MESSAGES.twoFactorCodeIntro}</p>
      <Form method="post" action={`/login?${new URLSearchParams({ step: 'code', redirectTo })}`} noValidate className="flex flex-col gap-3" data-testid="login-code-form">
        <input type="hidden" name="intent" value="code" />
        <FormField
          label={MESSAGES.twoFactorCodeLabel}
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={11}
          autoFocus
          required
        />
        <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
          {MESSAGES.twoFactorCodeButton}
        </button>
        <FormError message={formError} />
      </Form>
    </AuthCard>
  );
}
