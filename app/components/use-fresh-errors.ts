import { type FormEvent, useState } from 'react';

type Errors = Partial<Record<string, string>>;
const NONE: ReadonlySet<string> = new Set();

/**
 * A form's errors without those about a field edited since they came: once the writer
 * changes the email, "already exists" is about a value that is gone. The edited set belongs to
 * one `errors` object, so a new answer shows all of its errors again, in the same render (focus
 * moves to the first invalid field in that render's effects). Put `onInput` on the form.
 */
export function useFreshErrors<E extends Errors>(errors: E) {
  const [edits, setEdits] = useState<{ of: E; names: ReadonlySet<string> }>({ of: errors, names: NONE });
  const edited = edits.of === errors ? edits.names : NONE;
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (!name || edited.has(name)) return;
    setEdits({ of: errors, names: new Set([...edited, name]) });
  };
  const fresh = Object.fromEntries(Object.entries(errors).filter(([name]) => !edited.has(name))) as Partial<E>;
  return { errors: fresh, edited: (name: string) => edited.has(name), onInput };
}
