import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker, useRouteLoaderData } from 'react-router';
import { draftKey } from '~/lib/page/drafts';

/** The text fields a draft keeps: the picture is not kept (a file cannot be stored, only chosen again). */
const DRAFT_FIELDS = ['title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability'] as const;

type Draft = Partial<Record<(typeof DRAFT_FIELDS)[number], string>>;

function readDraft(key: string): Draft | null {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return stored && typeof stored === 'object' ? (stored as Draft) : null;
  } catch {
    return null;
  }
}

function fieldsOf(form: HTMLFormElement): Draft {
  const draft: Draft = {};
  for (const name of DRAFT_FIELDS) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) draft[name] = field.value;
  }
  return draft;
}

/**
 * Drafts kept in this browser (docs/decisions/027): every change of a blog form is saved under
 * the signed-in account and the page's address (app/lib/page/drafts.ts), a later visit by the same
 * account puts it back, and a successful save clears it (logging out clears them all). Leaving with
 * unsaved changes asks first, for links inside the site and for closing the tab.
 */
export function useDraft(formRef: RefObject<HTMLFormElement | null>, path: string, { restore }: { restore: boolean }) {
  const account = (useRouteLoaderData('root') as { user?: { email?: string } | null } | undefined)?.user?.email ?? '';
  const key = draftKey(account, path);
  const [restored, setRestored] = useState(false);
  const [dirty, setDirty] = useState(false);
  const saving = useRef(false);

  useEffect(() => {
    const form = formRef.current;
    if (!form || !restore) return;
    const draft = readDraft(key);
    if (!draft) return;
    const current = fieldsOf(form);
    if (DRAFT_FIELDS.every((name) => (draft[name] ?? '') === (current[name] ?? ''))) return;
    for (const name of DRAFT_FIELDS) {
      const field = form.elements.namedItem(name) as HTMLInputElement | null;
      if (field && draft[name] !== undefined) field.value = draft[name];
    }
    setRestored(true);
    setDirty(true);
  }, [formRef, key, restore]);

  const onChange = useCallback(() => {
    const form = formRef.current;
    if (!form) return;
    saving.current = false;
    localStorage.setItem(key, JSON.stringify(fieldsOf(form)));
    setDirty(true);
  }, [formRef, key]);

  const discard = useCallback(() => {
    localStorage.removeItem(key);
    setRestored(false);
    setDirty(false);
    formRef.current?.reset();
  }, [formRef, key]);

  /** Called as the form is sent: the draft is cleared and leaving is no longer asked about. */
  const onSave = useCallback(() => {
    saving.current = true;
    localStorage.removeItem(key);
    setDirty(false);
  }, [key]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !saving.current && currentLocation.pathname !== nextLocation.pathname);
  return { restored, dirty, onChange, discard, onSave, blocker };
}
