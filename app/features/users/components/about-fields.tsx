import { useId } from 'react';
import { BIO_MAX_LENGTH, LINKS_MAX, WEBSITE_MAX_LENGTH } from '~/features/users/users.schema';
import type { ProfileAbout } from '~/features/users/users.presenter';
import { FormField } from './form-field';

type AboutErrors = Partial<Record<'bio' | 'website' | 'links', string>>;

/** A labelled textarea with its hint and error tied to it, like FormField's inputs. */
function TextArea({ label, name, hint, error, defaultValue, maxLength, rows }: { label: string; name: string; hint: string; error?: string; defaultValue: string; maxLength?: number; rows: number }) {
  const id = `${name}-${useId()}`;
  return (
    <div className="form-control w-full">
      <label htmlFor={id} className="label mb-1">
        <span className="label-text font-medium text-base-content">{label}</span>
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        defaultValue={defaultValue}
        className={`textarea textarea-bordered w-full ${error ? 'textarea-error' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm opacity-80">{hint}</p>
      {error ? <p id={`${id}-error`} className="mt-1 text-sm font-medium text-error" data-testid={`${name}-error`}>{error}</p> : null}
    </div>
  );
}

/** Bio, website and links on the Edit profile form, under the spec's fields (docs/decisions/067). */
export function AboutFields({ profile, errors }: { profile: ProfileAbout | null; errors?: AboutErrors }) {
  return (
    <fieldset className="flex flex-col gap-4" data-testid="about-fields">
      <legend className="mb-2 text-lg font-semibold">About you</legend>
      <TextArea label="Bio" name="bio" rows={3} maxLength={BIO_MAX_LENGTH} defaultValue={profile?.bio ?? ''} error={errors?.bio} hint={`Shown on your author page, up to ${BIO_MAX_LENGTH} characters.`} />
      <FormField label="Website" name="website" type="url" inputMode="url" autoComplete="url" maxLength={WEBSITE_MAX_LENGTH} placeholder="https://" defaultValue={profile?.website ?? ''} error={errors?.website} />
      <TextArea label="Links" name="links" rows={3} defaultValue={profile?.links.join('\n') ?? ''} error={errors?.links} hint={`Other places you write or can be found, one address a line (up to ${LINKS_MAX}).`} />
    </fieldset>
  );
}
