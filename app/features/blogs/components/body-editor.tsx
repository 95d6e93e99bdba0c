import { type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode, type TextareaHTMLAttributes, useEffect, useRef, useState } from 'react';
import { imageFailure, imageTooLarge } from '~/features/images/image-errors';
import { ACCEPTED_IMAGE_TYPES, IMAGE_WIDTHS } from '~/features/images/images.schema';
import { uploadImageWithProgress } from '~/features/images/upload-client';
import { MESSAGES } from '~/lib/texts/messages';
import { altFromFileName, imageMarkdown, insertBlock, type MarkdownAction, markdownEdit, type PictureRef, picturesIn, picturesWithoutAlt, type Replacement, setAlt, uploadingMarker } from '../markdown-edit';
import { MarkdownBody } from './markdown-body';

/** Where the server renders a preview with the page's own renderer and sanitiser (routes/blog-preview). */
export const PREVIEW_PATH = '/blog-preview';

type Tab = 'write' | 'preview';
type Preview = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; html: string; text: string } | { state: 'failed'; message: string };
interface Upload {
  n: number;
  name: string;
  percent: number;
}

const icon = (path: ReactNode) => (
  <svg className="h-4 w-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    {path}
  </svg>
);

/** The toolbar, in order; `keys` are the shortcuts the textarea also takes (Ctrl or Cmd). */
const TOOLS: { action: MarkdownAction | 'image'; label: string; key?: string; icon: ReactNode }[] = [
  { action: 'bold', label: 'Bold', key: 'B', icon: icon(<path d="M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z" />) },
  { action: 'italic', label: 'Italic', key: 'I', icon: icon(<path d="M19 4h-9M14 20H5M15 4 9 20" />) },
  { action: 'heading', label: 'Heading', icon: icon(<path d="M6 4v16M18 4v16M6 12h12" />) },
  { action: 'link', label: 'Link', key: 'K', icon: icon(<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />) },
  { action: 'quote', label: 'Quote', icon: icon(<path d="M7 7h4v5c0 3-2 5-4 5M15 7h4v5c0 3-2 5-4 5" />) },
  { action: 'list', label: 'Bulleted list', icon: icon(<path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />) },
  { action: 'code', label: 'Code', icon: icon(<path d="m8 7-5 5 5 5M16 7l5 5-5 5" />) },
  { action: 'image', label: 'Add a picture', icon: icon(<path d="M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15 9h.01" />) },
];
const SHORTCUTS: Record<string, MarkdownAction> = { b: 'bold', i: 'italic', k: 'link' };
const ACCEPTED = ACCEPTED_IMAGE_TYPES.split(',');
const PREVIEW_FAILED = 'The preview could not be made just now. Your text is still here; try again.';
const LARGEST_WIDTH = IMAGE_WIDTHS.at(-1)!;

/**
 * Puts a replacement into the textarea as the browser's own insertion, so Ctrl+Z takes it back
 * and React and the draft see an input event. Where that is refused (or the writer is in another
 * field: nothing steals focus), the value is set directly.
 */
function replaceIn(textarea: HTMLTextAreaElement, r: Replacement) {
  const focused = document.activeElement === textarea;
  let done = false;
  if (focused) {
    textarea.setSelectionRange(r.from, r.to);
    done = r.text === '' ? r.from === r.to || document.execCommand('delete') : document.execCommand('insertText', false, r.text);
    done &&= textarea.value.slice(r.from, r.from + r.text.length) === r.text;
  }
  if (!done) {
    textarea.setRangeText(r.text, r.from, r.to);
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
  }
  if (focused) textarea.setSelectionRange(r.selectStart, r.selectEnd);
}

const selectionOf = (t: HTMLTextAreaElement) => ({ value: t.value, start: t.selectionStart, end: t.selectionEnd });

/** A picture's address as the warning names it: its file, without the size fragment. */
const fileOf = (url: string) => url.replace(/#.*$/, '').split('/').at(-1) || url;

/** The size the pipeline will store the picture at (its largest width, upright), for width and height. */
async function shownSize(file: File): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const width = Math.min(bitmap.width, LARGEST_WIDTH);
    const height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
    bitmap.close();
    return { width, height };
  } catch {
    return undefined;
  }
}

export interface BodyEditorProps {
  /** id, name and the aria attributes tying the field to its hint and error. */
  field: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string; name: string };
  defaultValue?: string;
  maxLength: number;
  maxUploadMb: number;
  /** False before hydration: a plain textarea, so the form works without JavaScript. */
  enhanced: boolean;
  onUploadingChange: (uploading: boolean) => void;
  /** The title and summary the preview shows above the body, as the post's page does (docs/decisions/070). */
  previewHead?: () => { title: string; summary: string };
}

/**
 * The long description's editor (docs/decisions/030): Write and Preview tabs, a Markdown toolbar with
 * Ctrl/Cmd+B, I and K, and pictures uploaded into the body by the toolbar, by dropping or by
 * pasting. The preview is rendered on the server by the blog page's own renderer
 * (docs/decisions/030), so what the writer sees is what readers will get.
 */
export function BodyEditor({ field, defaultValue, maxLength, maxUploadMb, enhanced, onUploadingChange, previewHead }: BodyEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ write: null, preview: null });
  const tools = useRef<(HTMLButtonElement | null)[]>([]);
  const uploadCount = useRef(0);
  const [tab, setTab] = useState<Tab>('write');
  const [preview, setPreview] = useState<Preview>({ state: 'idle' });
  const [head, setHead] = useState<{ title: string; summary: string } | null>(null);
  const [toolFocus, setToolFocus] = useState(0);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [dropping, setDropping] = useState(false);
  const [describing, setDescribing] = useState<PictureRef | null>(null);
  const [missingAlt, setMissingAlt] = useState<PictureRef[]>([]);
  const altInput = useRef<HTMLInputElement>(null);
  const id = field.id;

  useEffect(() => onUploadingChange(uploads.length > 0), [uploads.length, onUploadingChange]);

  // Pictures without alt text, kept up to date as the text changes (typing, the toolbar, uploads):
  // a warning the writer can act on, never a reason the form will not save (docs/decisions/063).
  useEffect(() => {
    const t = textarea.current;
    if (!t || !enhanced) return;
    const check = () => setMissingAlt((shown) => {
      const now = picturesWithoutAlt(t.value);
      return now.map((p) => p.url).join(' ') === shown.map((p) => p.url).join(' ') ? shown : now;
    });
    check();
    t.addEventListener('input', check);
    return () => t.removeEventListener('input', check);
  }, [enhanced]);

  // The prompt takes focus, unless the writer is typing on in the text (a picture dropped or pasted
  // there): then it waits under the text, so no keystroke lands in the wrong field.
  useEffect(() => {
    if (!describing || document.activeElement === textarea.current) return;
    altInput.current?.focus();
    altInput.current?.select();
  }, [describing]);

  function saveAlt(alt: string) {
    const t = textarea.current;
    const edit = t && describing ? setAlt(t.value, describing.url, describing.alt, alt) : null;
    setDescribing(null);
    if (!t) return;
    t.focus();
    if (edit) replaceIn(t, edit);
  }

  function apply(action: MarkdownAction) {
    const t = textarea.current;
    if (!t) return;
    t.focus();
    replaceIn(t, markdownEdit(action, selectionOf(t)));
  }

  async function renderPreview() {
    const text = textarea.current?.value ?? '';
    setHead(previewHead?.() ?? null);
    if (preview.state === 'ready' && preview.text === text) return;
    if (!text.trim()) return setPreview({ state: 'ready', html: '', text });
    setPreview({ state: 'loading' });
    const body = new FormData();
    body.set('long_description', text);
    try {
      const res = await fetch(PREVIEW_PATH, { method: 'POST', body });
      const answer = (await res.json().catch(() => ({}))) as { html?: string; message?: string };
      if (!res.ok || typeof answer.html !== 'string') throw new Error(answer.message ?? PREVIEW_FAILED);
      setPreview({ state: 'ready', html: answer.html, text });
    } catch (error) {
      setPreview({ state: 'failed', message: error instanceof Error ? error.message : PREVIEW_FAILED });
    }
  }

  function choose(next: Tab, focus = false) {
    setTab(next);
    if (focus) tabs.current[next]?.focus();
    if (next === 'preview') void renderPreview();
  }

  function onTabKey(event: KeyboardEvent) {
    const moves: Record<string, Tab> = { ArrowRight: tab === 'write' ? 'preview' : 'write', ArrowLeft: tab === 'write' ? 'preview' : 'write', Home: 'write', End: 'preview' };
    const next = moves[event.key];
    if (!next) return;
    event.preventDefault();
    choose(next, true);
  }

  function onToolKey(event: KeyboardEvent) {
    const last = TOOLS.length - 1;
    const moves: Record<string, number> = { ArrowRight: toolFocus === last ? 0 : toolFocus + 1, ArrowLeft: toolFocus === 0 ? last : toolFocus - 1, Home: 0, End: last };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setToolFocus(next);
    tools.current[next]?.focus();
  }

  function onTextKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const action = SHORTCUTS[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    apply(action);
  }

  /** The same refusals the pipeline gives, before a byte is sent. */
  function refusal(file: File): string | null {
    if (!ACCEPTED.includes(file.type)) return imageFailure(MESSAGES.imageFormatRefused);
    if (file.size > maxUploadMb * 1024 * 1024) return imageFailure(imageTooLarge(maxUploadMb));
    return null;
  }

  async function upload(file: File) {
    const t = textarea.current;
    if (!t) return;
    const n = ++uploadCount.current;
    const marker = uploadingMarker(file.name, n);
    replaceIn(t, insertBlock(selectionOf(t), marker));
    setUploads((list) => [...list, { n, name: file.name, percent: 0 }]);
    let text = '';
    try {
      const [size, url] = await Promise.all([
        shownSize(file),
        uploadImageWithProgress(file, (percent) => setUploads((list) => list.map((u) => (u.n === n ? { ...u, percent } : u)))),
      ]);
      text = imageMarkdown(altFromFileName(file.name), url, size);
      // Every new picture asks for its description at once, the file's name offered as a start.
      const [picture] = picturesIn(text);
      if (picture) setDescribing(picture);
    } catch (error) {
      setUploadError(imageFailure(error instanceof Error ? error.message : ''));
    } finally {
      setUploads((list) => list.filter((u) => u.n !== n));
    }
    // The writer may have typed meanwhile: the marker is found again where it now is.
    const at = t.value.indexOf(marker);
    if (at === -1) return;
    const { selectionStart: s, selectionEnd: e } = t;
    const shift = (p: number) => (p >= at + marker.length ? p + text.length - marker.length : Math.min(p, at + text.length));
    replaceIn(t, { from: at, to: at + marker.length, text, selectStart: shift(s), selectEnd: shift(e) });
  }

  function uploadAll(files: Iterable<File>) {
    setUploadError(null);
    for (const file of files) {
      const refused = refusal(file);
      if (refused) setUploadError(refused);
      else void upload(file);
    }
  }

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent<HTMLTextAreaElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDropping(true);
  };
  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    setDropping(false);
    if (!hasFiles(event)) return;
    event.preventDefault();
    uploadAll(event.dataTransfer.files);
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    if (event.clipboardData.files.length === 0) return;
    event.preventDefault();
    uploadAll(event.clipboardData.files);
  };

  const describedBy = [field['aria-describedby'], uploadError ? `${id}-upload-error` : null].filter(Boolean).join(' ') || undefined;
  // One tree before and after hydration (only attributes and siblings are added), so the textarea
  // is never remounted: text typed early or a restored draft stays.
  return (
    <div data-testid="body-editor">
      {enhanced ? (
        <div className="flex flex-wrap items-end justify-between gap-2 border-b border-base-300">
          <div role="tablist" aria-label="Write or preview" className="flex" onKeyDown={onTabKey}>
            {(['write', 'preview'] as const).map((name) => (
              <button
                key={name}
                ref={(el) => void (tabs.current[name] = el)}
                type="button"
                role="tab"
                id={`${id}-tab-${name}`}
                aria-selected={tab === name}
                aria-controls={`${id}-panel-${name}`}
                tabIndex={tab === name ? 0 : -1}
                onClick={() => choose(name)}
                className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === name ? 'border-primary text-base-content' : 'border-transparent opacity-75 hover:opacity-100'}`}
              >
                {name === 'write' ? 'Write' : 'Preview'}
              </button>
            ))}
          </div>
          {tab === 'write' ? (
            <div role="toolbar" aria-label="Formatting" aria-controls={id} className="flex flex-wrap gap-0.5 pb-1" onKeyDown={onToolKey}>
              {TOOLS.map((tool, i) => (
                <button
                  key={tool.action}
                  ref={(el) => void (tools.current[i] = el)}
                  type="button"
                  className="btn btn-ghost btn-sm btn-square"
                  aria-label={tool.label}
                  aria-keyshortcuts={tool.key ? `Control+${tool.key} Meta+${tool.key}` : undefined}
                  title={tool.key ? `${tool.label} (Ctrl+${tool.key})` : tool.label}
                  tabIndex={i === toolFocus ? 0 : -1}
                  onFocus={() => setToolFocus(i)}
                  onClick={() => (tool.action === 'image' ? picker.current?.click() : apply(tool.action))}
                >
                  {tool.icon}
                </button>
              ))}
              <input
                ref={picker}
                type="file"
                accept={ACCEPTED_IMAGE_TYPES}
                multiple
                hidden
                tabIndex={-1}
                data-testid="body-image-input"
                onChange={(event) => {
                  uploadAll([...(event.currentTarget.files ?? [])]);
                  event.currentTarget.value = '';
                }}
              />
            </div>
          ) : null}
        </div>
      ) : null}

      <div {...(enhanced ? { role: 'tabpanel', id: `${id}-panel-write`, 'aria-labelledby': `${id}-tab-write`, hidden: tab !== 'write', className: 'pt-2' } : {})}>
        <textarea
          {...field}
          ref={textarea}
          aria-describedby={describedBy}
          required
          rows={18}
          maxLength={maxLength}
          defaultValue={defaultValue}
          className="textarea w-full font-serif text-lg leading-relaxed"
          data-dropping={dropping || undefined}
          {...(enhanced ? { onKeyDown: onTextKey, onDragOver, onDragLeave: () => setDropping(false), onDrop, onPaste } : {})}
        />
        {uploads.map((u) => (
          <div key={u.n} className="mt-2 flex items-center gap-3 text-sm" data-testid="body-upload">
            <span className="truncate" id={`${id}-upload-${u.n}`}>Uploading {u.name}</span>
            <progress className="progress progress-primary w-40" value={u.percent} max={100} aria-labelledby={`${id}-upload-${u.n}`} />
          </div>
        ))}
        {describing ? (
          <div className="mt-2 rounded-box border border-base-300 bg-base-200 p-3" data-testid="alt-prompt">
            <label htmlFor={`${id}-alt`} className="text-sm font-semibold">
              Describe this picture for readers who cannot see it
            </label>
            <p id={`${id}-alt-hint`} className="text-xs opacity-80">
              A few words on what it shows ({fileOf(describing.url)}). For a caption under it, add it in quotes after the address: ![description](address "caption").
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <input
                ref={altInput}
                id={`${id}-alt`}
                type="text"
                className="input input-sm min-w-48 flex-1"
                defaultValue={describing.alt}
                aria-describedby={`${id}-alt-hint`}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    saveAlt(event.currentTarget.value);
                  } else if (event.key === 'Escape') {
                    event.preventDefault();
                    setDescribing(null);
                    textarea.current?.focus();
                  }
                }}
              />
              <button type="button" className="btn btn-sm btn-primary" onClick={() => saveAlt(altInput.current?.value ?? '')}>
                Save description
              </button>
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => (setDescribing(null), textarea.current?.focus())}>
                Not now
              </button>
            </div>
          </div>
        ) : null}
        {enhanced ? (
          <div role="status" className="text-sm" data-testid="alt-warning">
            {missingAlt.length > 0 && !describing ? (
              <div className="mt-2 rounded-box border border-warning bg-base-200 p-3">
                <p>{missingAlt.length === 1 ? 'A picture has' : `${missingAlt.length} pictures have`} no description for readers who cannot see it. You can still save; adding one helps them.</p>
                <ul className="mt-1">
                  {missingAlt.map((picture) => (
                    <li key={picture.altFrom} className="mt-1 flex items-center gap-2">
                      <span className="truncate font-mono text-xs">{fileOf(picture.url)}</span>
                      <button type="button" className="btn btn-xs" aria-label={`Describe ${fileOf(picture.url)}`} onClick={() => setDescribing(picture)}>
                        Describe
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        ) : null}
        {uploadError ? (
          <p id={`${id}-upload-error`} role="alert" className="mt-1 text-sm font-medium text-error" data-testid="body-upload-error">
            {uploadError}
          </p>
        ) : null}
      </div>

      {enhanced ? (
        <div
          role="tabpanel"
          id={`${id}-panel-preview`}
          aria-labelledby={`${id}-tab-preview`}
          hidden={tab !== 'preview'}
          tabIndex={0}
          aria-busy={preview.state === 'loading'}
          className="min-h-48 rounded-box border border-base-300 px-5 pb-6 pt-1"
          data-testid="preview"
        >
          {head?.title || head?.summary ? (
            <header className="mt-5">
              {head.title ? <p className="font-serif text-4xl font-bold leading-tight tracking-tight" data-testid="preview-title">{head.title}</p> : null}
              {head.summary ? <p className="mt-4 font-serif text-lede opacity-85">{head.summary}</p> : null}
            </header>
          ) : null}
          {preview.state === 'loading' ? <p className="mt-5 opacity-75">Rendering the preview…</p> : null}
          {preview.state === 'failed' ? <p role="alert" className="mt-5 text-error">{preview.message}</p> : null}
          {preview.state === 'ready' ? preview.html ? <MarkdownBody html={preview.html} className="mt-3" /> : <p className="mt-5 opacity-75">Nothing to preview yet.</p> : null}
        </div>
      ) : null}
    </div>
  );
}
