import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  /** Rendered inside the input's row, after it (the password's show/hide toggle). */
  trailing?: ReactNode;
}

/** A labelled input with its hint and its error, both tied to it for screen readers. */
export function FormField({ label, name, error, hint, trailing, id, className, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? `${name}-${generated}`;
  // A refusal that repeats the hint word for word takes its place, so the text is not shown twice.
  const shownHint = hint && hint !== error ? hint : undefined;
  const hintId = shownHint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="form-control w-full">
      <label htmlFor={inputId} className="label mb-1">
        <span className="label-text font-medium text-base-content">{label}</span>
      </label>
      <div className="join w-full">
        <input
          id={inputId}
          name={name}
          className={`input input-bordered join-item w-full ${error ? 'input-error' : ''} ${className ?? ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
          {...input}
        />
        {trailing}
      </div>
      {shownHint ? <p id={hintId} className="mt-1 text-sm opacity-80">{shownHint}</p> : null}
      {error ? <p id={errorId} className="mt-1 text-sm font-medium text-error" data-testid={`${name}-error`}>{error}</p> : null}
    </div>
  );
}
