import type { ReactNode } from 'react';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { Page } from '~/components/page';
import { FormError } from '~/features/users/components/auth-card';
import { FormField } from '~/features/users/components/form-field';
import { PasswordField } from '~/features/users/components/password-field';
import { type AccountOutcome, changePassword, deleteOwnAccount, myPasskeys, removePasskey, requestEmailChange } from '~/features/users/account.service.server';
import { PasskeysSection } from '~/features/users/components/passkeys';
import { ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema, fieldErrors, PASSWORD_MAX_LENGTH, RemovePasskeySchema } from '~/features/users/users.schema';
import { listExports, requestExport } from '~/features/exports/exports.service.server';
import { ExportList } from '~/features/exports/components/export-list';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { defineAction } from '~/lib/page/page-action.server';
import { pageTitle } from '~/lib/page/seo';
import { EMAIL_MAX_LENGTH } from '~/lib/core/validation';
import { AppError } from '~/lib/core/errors';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import type { Route } from './+types/account';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, MESSAGES.accountSettings) }];

/** The page a confirmed email change lands on says so; a link asked before a new password does not work. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const outcome = new URL(request.url).searchParams.get('email');
  const notice = outcome === 'changed' ? MESSAGES.emailChanged : outcome === 'stale' ? MESSAGES.resetLinkInvalid : null;
  const exports = context.user ? await listExports(context.service, context.deps.config) : [];
  return { email: context.user?.email ?? null, notice, passkeys: context.user ? await myPasskeys(context.service) : [], exports };
}

type Intent = 'password' | 'email' | 'delete' | 'passkey-remove' | 'export';
interface AccountActionData {
  intent: Intent;
  errors: Partial<Record<'currentPassword' | 'newPassword' | 'newEmail' | 'password' | 'confirm', string>>;
  formError?: string;
  sentTo?: string;
  exportStarted?: boolean;
}

/** A change's outcome: its refusal shown on its form, or `to` with a toast that says it is done. */
function settled(intent: Intent, outcome: AccountOutcome, to: string, text: string) {
  if (!outcome.ok) return data<AccountActionData>({ intent, errors: {}, formError: outcome.message }, outcome.status);
  return redirect(to, { headers: withFlash({ type: 'toast', kind: 'success', text, duration: FEEDBACK_MS.success }, outcome.cookies) });
}

/** Change password, change email, delete the account (docs/decisions/067): each through better-auth's own endpoint. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.exportRequest], input: { password: ChangePasswordSchema, email: ChangeEmailSchema, delete: DeleteAccountSchema, passkey: RemovePasskeySchema } },
  async ({ request, context }, { ctx, input }) => {
    const form = Object.fromEntries(await request.formData());
    const intent: Intent = form.intent === 'email' || form.intent === 'delete' || form.intent === 'passkey-remove' || form.intent === 'export' ? form.intent : 'password';
    if (intent === 'export') {
      try {
        await requestExport(ctx, context.deps.config, 'writer');
      } catch (error) {
        if (error instanceof AppError && (error.code === 'conflict' || error.code === 'rate_limited')) return data<AccountActionData>({ intent, errors: {}, formError: error.message }, error.status);
        throw error;
      }
      return data<AccountActionData>({ intent, errors: {}, exportStarted: true });
    }
    if (intent === 'passkey-remove') {
      const parsed = input.passkey.safeParse(form);
      if (!parsed.success) return data<AccountActionData>({ intent, errors: {}, formError: MESSAGES.passkeyFailed }, 400);
      return settled(intent, await removePasskey(ctx, parsed.data.passkeyId), '/account', MESSAGES.passkeyRemoved);
    }
    if (intent === 'delete') {
      const parsed = input.delete.safeParse(form);
      if (!parsed.success) return data<AccountActionData>({ intent, errors: fieldErrors(parsed.error) }, 400);
      return settled(intent, await deleteOwnAccount(ctx, parsed.data.password), '/', MESSAGES.accountDeletedText);
    }
    if (intent === 'password') {
      const parsed = input.password.safeParse(form);
      if (!parsed.success) return data<AccountActionData>({ intent, errors: fieldErrors(parsed.error) }, 400);
      return settled(intent, await changePassword(ctx, parsed.data), '/account', MESSAGES.passwordChanged);
    }
    const parsed = input.email.safeParse(form);
    if (!parsed.success) return data<AccountActionData>({ intent, errors: fieldErrors(parsed.error) }, 400);
    const outcome = await requestEmailChange(ctx, parsed.data);
    if (!outcome.ok) return data<AccountActionData>({ intent, errors: {}, formError: outcome.message }, outcome.status);
    return data<AccountActionData>({ intent, errors: {}, sentTo: parsed.data.newEmail });
  },
);

export default function Account({ loaderData: { email, notice, passkeys, exports }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const of = (intent: Intent) => (actionData?.intent === intent ? actionData : undefined);
  if (!email) {
    return (
      <Page title={MESSAGES.accountSettings} wide={false}>
        {notice ? <p role="status" className="alert alert-info mt-6" data-testid="account-notice">{notice}</p> : null}
        <p className="mt-6 text-lg" data-testid="no-user">{MESSAGES.noUserLoggedIn} <Link to="/login?redirectTo=/account" className="link link-primary">{MESSAGES.logIn}</Link></p>
      </Page>
    );
  }
  const password = of('password');
  const change = of('email');
  const leave = of('delete');
  const download = of('export');
  return (
    <Page title={MESSAGES.accountSettings} wide={false}>
      {notice ? <p role="status" className="alert alert-info mt-6" data-testid="account-notice">{notice}</p> : null}
      <SettingsCard testId="change-password" title={MESSAGES.changePasswordTitle}>
        <input type="hidden" name="intent" value="password" />
        <PasswordField label={MESSAGES.currentPasswordLabel} name="currentPassword" autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} error={password?.errors.currentPassword} />
        <PasswordField label={MESSAGES.newPasswordLabel} name="newPassword" autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} hint={MESSAGES.passwordHint} error={password?.errors.newPassword} />
        <FormError id="password-form-error" message={password?.formError} />
        <button type="submit" className="btn btn-primary self-start" disabled={busy}>{MESSAGES.changePasswordTitle}</button>
      </SettingsCard>
      <SettingsCard testId="change-email" title={MESSAGES.changeEmailTitle}>
        <p className="text-sm opacity-85">Now: <span data-testid="account-email">{email}</span></p>
        <input type="hidden" name="intent" value="email" />
        <FormField label={MESSAGES.newEmailLabel} name="newEmail" type="email" autoComplete="email" maxLength={EMAIL_MAX_LENGTH} required error={change?.errors.newEmail} />
        <PasswordField label={MESSAGES.currentPasswordLabel} name="password" autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} error={change?.errors.password} />
        <FormError id="email-form-error" message={change?.formError} />
        {change?.sentTo ? <p role="status" className="alert alert-success" data-testid="email-change-sent">{MESSAGES.emailChangeSent(change.sentTo)}</p> : null}
        <button type="submit" className="btn btn-primary self-start" disabled={busy}>{MESSAGES.changeEmailTitle}</button>
      </SettingsCard>
      <PasskeysSection passkeys={passkeys} removeError={of('passkey-remove')?.formError} />
      <SettingsCard testId="export-everything" title={MESSAGES.exportTitle}>
        <p>{MESSAGES.exportWhat}</p>
        <input type="hidden" name="intent" value="export" />
        <FormError id="export-form-error" message={download?.formError} />
        {download?.exportStarted ? <p role="status" className="alert alert-success" data-testid="export-started">{MESSAGES.exportStarted}</p> : null}
        <button type="submit" className="btn btn-primary self-start" disabled={busy}>{MESSAGES.exportButton}</button>
        <ExportList exports={exports} />
      </SettingsCard>
      <SettingsCard testId="delete-account" title={MESSAGES.deleteAccountTitle} danger>
        <p>{MESSAGES.deleteAccountWhat}</p>
        <p className="text-sm opacity-85" data-testid="export-before-you-go">{MESSAGES.exportBeforeYouGo}</p>
        <input type="hidden" name="intent" value="delete" />
        <PasswordField label={MESSAGES.currentPasswordLabel} name="password" autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} error={leave?.errors.password} />
        <label className="label cursor-pointer justify-start gap-3 whitespace-normal">
          <input type="checkbox" name="confirm" className="checkbox checkbox-error" aria-invalid={leave?.errors.confirm ? true : undefined} aria-describedby={leave?.errors.confirm ? 'confirm-error' : undefined} />
          <span className="label-text text-base-content">{MESSAGES.deleteAccountConfirm}</span>
        </label>
        {leave?.errors.confirm ? <p id="confirm-error" className="text-sm font-medium text-error">{leave.errors.confirm}</p> : null}
        <FormError id="delete-form-error" message={leave?.formError} />
        <button type="submit" className="btn btn-error self-start" disabled={busy}>{MESSAGES.deleteAccountButton}</button>
      </SettingsCard>
    </Page>
  );
}

/** Each of the page's forms in its own card; the one that deletes the account has a red edge. */
function SettingsCard({ testId, title, danger = false, children }: { testId: string; title: string; danger?: boolean; children: ReactNode }) {
  return (
    <div className={`card mt-6 border ${danger ? 'border-error/40' : 'border-base-300'} bg-base-100 shadow-md`}>
      <Form method="post" className="card-body gap-3" data-testid={testId} noValidate>
        <h2 className="card-title">{title}</h2>
        {children}
      </Form>
    </div>
  );
}
