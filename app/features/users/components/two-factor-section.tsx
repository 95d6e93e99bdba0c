import { Form, useNavigation } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';
import { FormField } from './form-field';
import { PasswordField } from './password-field';

export interface TwoFactorSetupView {
  qrSvg: string;
  secret: string;
  backupCodes: string[];
}

export type TwoFactorActionData =
  | { intent: 'enable'; setup: TwoFactorSetupView; error?: undefined }
  | { intent: 'enable' | 'confirm' | 'disable'; error: string; setup?: undefined };

/**
 * The profile's two-factor section: set up (password → QR code, key and recovery codes, then a
 * first code), or turn off (password). Plain forms: it works without JavaScript.
 */
export function TwoFactorSection({ enabled, actionData }: { enabled: boolean; actionData?: TwoFactorActionData }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const setup = actionData?.setup;
  const confirming = Boolean(setup) || actionData?.intent === 'confirm';
  return (
    <section aria-labelledby="two-factor-heading" className="card mt-6 border border-base-300 bg-base-100 shadow-xl" data-testid="two-factor">
      <div className="card-body gap-3">
        <h2 id="two-factor-heading" className="card-title text-xl">{MESSAGES.twoFactorHeading}</h2>
        {enabled ? (
          <>
            <p data-testid="two-factor-status">{MESSAGES.twoFactorOnText}</p>
            <Form method="post" className="flex flex-col gap-3" data-testid="two-factor-disable">
              <input type="hidden" name="intent" value="disable" />
              <PasswordField autoComplete="current-password" hint={MESSAGES.twoFactorPasswordHint} error={actionData?.intent === 'disable' ? actionData.error : undefined} />
              <button type="submit" className="btn btn-outline btn-error" disabled={busy}>{MESSAGES.twoFactorDisableButton}</button>
            </Form>
          </>
        ) : (
          <>
            <p data-testid="two-factor-status">{MESSAGES.twoFactorOffText}</p>
            {setup ? <SetupDetails setup={setup} /> : null}
            {confirming ? (
              <Form method="post" className="flex flex-col gap-3" data-testid="two-factor-confirm">
                <input type="hidden" name="intent" value="confirm" />
                <FormField
                  label={MESSAGES.twoFactorConfirmLabel}
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  maxLength={6}
                  required
                  error={actionData?.intent === 'confirm' ? actionData.error : undefined}
                />
                <button type="submit" className="btn btn-primary" disabled={busy}>{MESSAGES.twoFactorConfirmButton}</button>
              </Form>
            ) : null}
            <Form method="post" className="flex flex-col gap-3" data-testid="two-factor-enable">
              <input type="hidden" name="intent" value="enable" />
              {confirming ? null : (
                <PasswordField autoComplete="current-password" hint={MESSAGES.twoFactorPasswordHint} error={actionData?.intent === 'enable' ? actionData.error : undefined} />
              )}
              {confirming ? (
                <details>
                  <summary className="cursor-pointer text-sm">{MESSAGES.twoFactorStartOver}</summary>
                  <div className="mt-2 flex flex-col gap-3">
                    <PasswordField autoComplete="current-password" hint={MESSAGES.twoFactorPasswordHint} />
                    <button type="submit" className="btn btn-outline" disabled={busy}>{MESSAGES.twoFactorEnableButton}</button>
                  </div>
                </details>
              ) : (
                <button type="submit" className="btn btn-primary" disabled={busy}>{MESSAGES.twoFactorEnableButton}</button>
              )}
            </Form>
          </>
        )}
      </div>
    </section>
  );
}

function SetupDetails({ setup }: { setup: TwoFactorSetupView }) {
  return (
    <div className="flex flex-col gap-3" data-testid="two-factor-setup">
      <p>{MESSAGES.twoFactorScan}</p>
      {/* Our own SVG, made on the server from the otpauth URI by the qrcode package. */}
      <div
        role="img"
        aria-label="QR code for your authenticator app"
        className="mx-auto w-48 rounded-box bg-white p-1"
        data-testid="two-factor-qr"
        dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
      />
      <p className="text-sm font-medium">{MESSAGES.twoFactorSecretLabel}</p>
      <code className="break-all rounded-box bg-base-200 p-2 text-sm" data-testid="two-factor-secret">{setup.secret}</code>
      <h3 className="font-semibold">{MESSAGES.twoFactorRecoveryTitle}</h3>
      <p className="text-sm">{MESSAGES.twoFactorRecoveryText}</p>
      <ul className="grid grid-cols-2 gap-1 rounded-box bg-base-200 p-3 font-mono text-sm" data-testid="two-factor-recovery-codes">
        {setup.backupCodes.map((code) => <li key={code}>{code}</li>)}
      </ul>
    </div>
  );
}
