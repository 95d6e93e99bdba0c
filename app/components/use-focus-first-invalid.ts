import { type RefObject, useEffect } from 'react';

/**
 * When a form comes back with errors (checked in the browser or by the server), focus moves to
 * its first invalid field, so a screen reader announces the field, its invalid state and the
 * error tied to it by aria-describedby, and a sighted keyboard user lands where the fix is.
 * `errors` must keep its identity between renders until it changes (state or action data).
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, errors: object | null | undefined) {
  useEffect(() => {
    if (!errors || Object.keys(errors).length === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, errors]);
}
