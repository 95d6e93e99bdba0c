import { useEffect, useRef } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { useFocusFirstInvalid } from '~/components/use-focus-first-invalid';
import { AuthCard, FormError } from '~/features/users/components/auth-card';
import { FormField } from '~/features/users/components/form-field';
import { PasswordField } from '~/features/users/components/password-field';
import { SocialLogin } from '~/features/users/components/social-login';
import { socialErrorMessage } from '~/features/users/social-errors';
import { fieldErrors, LogInSchema, PASSWORD_MAX_LENGTH } from '~/features/users/users.schema';
import { FEEDBACK_MS } from '~/lib/feedback';
import { withFlash } from '~/lib/flash.server';
import { MESSAGES } from '~/lib/messages';
import { safeRedirectPath } from '~/lib/session.server';
import { authErrorMessage, callAuth, forwardCookies, socialProviders } from '#server/auth.server';
import { AUTH_RATE_LIMITS, consumeRateLimit } from '#server/middleware/rate-limit.server';
import { hasTwoFactorChallenge, twoFactorErrorMessage, verifyPath } from '#server/two-factor.server';
import type { Route } from './+types/login';

export const meta: Route.MetaFunction = () => [{ title: 'Log In · Afterglow' }];

type FieldErrors = Partial<Record<'email' | 'password', string>>;

const loggedIn = (target: string, headers = new Headers()) =>
  redirect(target, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.loginSuccess, duration: FEEDBACK_MS.success }, headers) });

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get('redirectTo'));
  // The end of a social sign-in (popup or redirect): better-auth has set the session cookie.
  if (url.searchParams.get('social') === 'done' && context.user) return loggedIn(redirectTo);
  if (context.user) throw redirect('/');
  const providers = socialProviders(context.deps.config);
  const provider = url.searchParams.get('provider');
  if (provider && providers.some((p) => p.id === provider)) return startSocialRedirect(request, context, provider, redirectTo);
  const error = url.searchParams.get('error');
  // The second step of a password sign-in for a two-factor account (issue 7).
  const step = url.searchParams.get('step') === 'code' && hasTwoFactorChallenge(request.headers.get('cookie')) ? 'code' : 'password';
  return { providers, redirectTo, step, socialError: error ? socialErrorMessage(error) : null };
}

/** The redirect flow (no JavaScript, or a blocked popup): a GET, so the CSP's form-action stays 'self'. */
async function startSocialRedirect(request: Request, context: Route.LoaderArgs['context'], provider: string, redirectTo: string) {
  const response = await callAuth(authCall(request, context), '/sign-in/social', {
    provider,
    callbackURL: `/login?${new URLSearchParams({ social: 'done', redirectTo })}`,
    errorCallbackURL: `/login?${new URLSearchParams({ redirectTo })}`,
    disableRedirect: true,
  });
  const body = (await response.json().catch(() => null)) as { url?: string } | null;
  if (!response.ok || !body?.url) throw redirect(`/login?${new URLSearchParams({ redirectTo, error: 'internal-error' })}`);
  return redirect(body.url, { headers: forwardCookies(response) });
}

const authCall = (request: Request, context: Route.LoaderArgs['context']) => ({
  auth: context.deps.auth,
  config: context.deps.config,
  request,
  clientIp: context.clientIp,
});

type ActionData = { step: 'password' | 'code'; errors: FieldErrors; formError: string | null; values: { email: string } };
const answer = (body: ActionData, status: number) => data(body, status);

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo') ?? String(form.redirectTo ?? ''));
  if (form.intent === 'code') return verifyCode(request, context, String(form.code ?? '').trim(), redirectTo);
  const values = { email: typeof form.email === 'string' ? form.email : '' };
  const parsed = LogInSchema.safeParse(form);
  if (!parsed.success) return answer({ step: 'password', errors: fieldErrors(parsed.error) as FieldErrors, formError: null, values }, 400);
  const limit = await consumeRateLimit(context.deps.rateLimits, AUTH_RATE_LIMITS.signIn, context.clientIp, context.service.log);
  if (!limit.allowed) return answer({ step: 'password', errors: {}, formError: MESSAGES.tooManyRequests, values }, 429);
  const response = await callAuth(authCall(request, context), '/sign-in/email', { ...parsed.data, rememberMe: true });
  if (!response.ok) {
    const { message } = await authErrorMessage(response, MESSAGES.invalidCredentials);
    return answer({ step: 'password', errors: {}, formError: message, values }, response.status === 429 ? 429 : 401);
  }
  const body = (await response.clone().json().catch(() => null)) as { twoFactorRedirect?: boolean } | null;
  if (body?.twoFactorRedirect) {
    // The password was right; better-auth set its short-lived two_factor cookie instead of a session.
    return redirect(`/login?${new URLSearchParams({ step: 'code', redirectTo })}`, { headers: forwardCookies(response) });
  }
  return loggedIn(redirectTo, forwardCookies(response));
}

/** The code step: a TOTP code, or a recovery code (once each); limited like sign-in itself. */
async function verifyCode(request: Request, context: Route.ActionArgs['context'], code: string, redirectTo: string) {
  const values = { email: '' };
  if (!code) return answer({ step: 'code', errors: {}, formError: MESSAGES.twoFactorCodeRequired, values }, 400);
  const limit = await consumeRateLimit(context.deps.rateLimits, AUTH_RATE_LIMITS.twoFactor, context.clientIp, context.service.log);
  if (!limit.allowed) return answer({ step: 'code', errors: {}, formError: MESSAGES.tooManyRequests, values }, 429);
  const response = await callAuth(authCall(request, context), verifyPath(code), { code, trustDevice: false });
  if (response.ok) return loggedIn(redirectTo, forwardCookies(response));
  const { code: reason } = await authErrorMessage(response, MESSAGES.serverError);
  const { message, restart } = twoFactorErrorMessage(reason, response.status);
  return data<ActionData>(
    { step: restart ? 'password' : 'code', errors: {}, formError: message, values },
    { status: response.status === 429 ? 429 : 401, headers: forwardCookies(response) },
  );
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
      <Form ref={formRef} method="post" action={`/login${search}`} noValidate className="flex flex-col gap-3" data-testid="login-form">
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.values.email}
          error={actionData?.errors.email}
          required
        />
        <PasswordField autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} error={actionData?.errors.password} />
        <div className="text-right">
          <Link to="/forgot-password" className="link link-hover text-sm">{MESSAGES.forgotPassword}</Link>
        </div>
        <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
          {MESSAGES.logInButton}
        </button>
        <FormError message={formError} />
      </Form>
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
