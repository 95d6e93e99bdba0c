import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { uploadImageWithProgress } from '~/features/images/upload-client';
import { DRAFT_FIELDS as FIELDS } from '../blogs.constants';

/** The fields a server draft keeps, as the form names them. */

/** How long after a change the draft is saved: every few seconds while the writer types. */
export const AUTOSAVE_MS = 2_500;

export type SaveState = 'clean' | 'unsaved' | 'saving' | 'saved' | 'failed';

export interface ServerDraftOptions {
  /** The draft the page opened with; none: one is made at the first change. */
  draftId: string | null;
  /** Set on the edit screen: the draft is an edit of this post. */
  blogId?: string;
  /** The photo the draft keeps already. */
  photo: string | null;
  /** The account the draft is saved for: a save is refused when the session changed meanwhile. */
  writerId: string;
}

/**
 * Autosave to the server (docs/decisions/070): a change is saved a few seconds later, and what is
 * not saved yet goes out as the page is hidden or closed (`fetch` with `keepalive`). A chosen
 * cover photo is uploaded with the draft, so another browser opens the draft with its picture;
 * pictures in the body are uploaded as they are dropped, and kept as the body names them.
 */
export function useServerDraft(formRef: RefObject<HTMLFormElement | null>, options: ServerDraftOptions) {
  const [draftId, setDraftId] = useState(options.draftId);
  const [state, setState] = useState<SaveState>('clean');
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [photo, setPhoto] = useState<{ url: string; file: File | null } | null>(options.photo ? { url: options.photo, file: null } : null);
  const idRef = useRef(options.draftId);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef(false);
  const stopped = useRef(false);
  const inFlight = useRef<Promise<void>>(Promise.resolve());
  const photoRef = useRef(photo);
  photoRef.current = photo;

  const body = useCallback(() => {
    const form = formRef.current;
    const values: Record<string, string> = {};
    if (form) {
      for (const name of FIELDS) {
        const field = form.elements.namedItem(name);
        if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) values[name] = field.value;
        else if (field instanceof RadioNodeList) values[name] = field.value;
      }
    }
    return JSON.stringify({ ...values, photo: photoRef.current?.url ?? '', ...(options.blogId ? { blogId: options.blogId } : {}), writerId: options.writerId });
  }, [formRef, options.blogId, options.writerId]);

  const ensureId = () => (idRef.current ??= crypto.randomUUID());

  /** The chosen cover, uploaded once for the draft; a later choice replaces it. */
  const uploadChosenPhoto = useCallback(async () => {
    const input = formRef.current?.elements.namedItem('image');
    const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
    if (!file || photoRef.current?.file === file) return;
    const url = await uploadImageWithProgress(file, () => {});
    photoRef.current = { url, file };
    setPhoto(photoRef.current);
  }, [formRef]);

  const save = useCallback(async () => {
    timer.current = null;
    if (stopped.current || !pending.current) return;
    pending.current = false;
    const id = ensureId();
    setState('saving');
    const run = (async () => {
      try {
        await uploadChosenPhoto();
        const res = await fetch(`/api/drafts/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: body() });
        if (!res.ok) throw new Error(String(res.status));
        const answer = (await res.json()) as { id: string; savedAt: string };
        idRef.current = answer.id;
        setDraftId(answer.id);
        setSavedAt(answer.savedAt);
        if (!pending.current) setState('saved');
      } catch {
        pending.current = true;
        setState('failed');
        if (!stopped.current) timer.current = setTimeout(() => void save(), AUTOSAVE_MS * 2);
      }
    })();
    inFlight.current = run;
    await run;
  }, [body, uploadChosenPhoto]);

  const onChange = useCallback(() => {
    if (stopped.current) return;
    pending.current = true;
    setState((s) => (s === 'saving' ? s : 'unsaved'));
    if (!timer.current) timer.current = setTimeout(() => void save(), AUTOSAVE_MS);
  }, [save]);

  // Leaving: what is not saved yet goes out with the page (the browser keeps the request alive).
  useEffect(() => {
    const flush = () => {
      if (stopped.current || !pending.current || document.visibilityState !== 'hidden') return;
      pending.current = false;
      void fetch(`/api/drafts/${ensureId()}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: body(), keepalive: true }).catch(() => {});
    };
    const onHide = () => flush();
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onHide);
    };
  }, [body]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  /**
   * The form is being sent: no more saves, and one still on its way is waited for, so it cannot
   * make the draft again after the post is published. Answers the cover already uploaded for
   * `file`, if it is that one.
   */
  const stop = useCallback(async (file: File | null) => {
    stopped.current = true;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    await inFlight.current;
    return { draftId: idRef.current, photo: photoRef.current && (file === null || photoRef.current.file === file) ? photoRef.current.url : null };
  }, []);

  /** Sending failed (a field refused): autosave goes on. */
  const resume = useCallback(() => {
    stopped.current = false;
  }, []);

  const discard = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = false;
    await inFlight.current;
    const id = idRef.current;
    idRef.current = null;
    setDraftId(null);
    setPhoto(null);
    photoRef.current = null;
    setState('clean');
    if (id) await fetch(`/api/drafts/${id}`, { method: 'DELETE' }).catch(() => {});
  }, []);

  return { draftId, state, savedAt, photo: photo?.url ?? null, onChange, stop, resume, discard };
}
