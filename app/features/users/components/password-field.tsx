import { useState } from 'react';
import { MESSAGES } from '~/lib/texts/messages';
import { FormField } from './form-field';

/** A password input with a show/hide toggle (docs/product.md#sign-up). */
export function PasswordField(props: {
  label?: string;
  name?: string;
  error?: string;
  hint?: string;
  autoComplete: 'current-password' | 'new-password';
  maxLength?: number;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <FormField
      label={props.label ?? 'Password'}
      name={props.name ?? 'password'}
      type={visible ? 'text' : 'password'}
      autoComplete={props.autoComplete}
      maxLength={props.maxLength}
      error={props.error}
      hint={props.hint}
      required
      trailing={
        <button
          type="button"
          className="btn join-item btn-outline border-base-300"
          aria-pressed={visible}
          aria-label={visible ? MESSAGES.hidePassword : MESSAGES.showPassword}
          onClick={() => setVisible((v) => !v)}
          data-testid="password-toggle"
        >
          <svg className="h-5 w-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
            <circle cx="12" cy="12" r="3" />
            {visible ? <path d="M4 4l16 16" strokeLinecap="round" /> : null}
          </svg>
        </button>
      }
    />
  );
}
