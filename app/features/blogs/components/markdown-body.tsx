import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { embedFromData, playerUrl } from '../markdown-embeds';

/**
 * Sanitised Markdown HTML (markdown.server.ts) with its typography. Styled through descendant
 * variants so the element set the sanitiser allows is styled here, in one place; highlighted
 * code's colours and the embed placeholders are in app.css.
 */
const TYPOGRAPHY = [
  'font-serif text-read break-words',
  '[&_h1]:mt-10 [&_h1]:mb-3 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:leading-tight',
  '[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:leading-snug',
  '[&_h3]:mt-8 [&_h3]:mb-2 [&_h3]:text-xl [&_h3]:font-semibold',
  '[&_h4]:mt-5 [&_h4]:font-semibold [&_h5]:font-semibold [&_h6]:font-semibold',
  '[&_p]:my-5 [&_ul]:my-5 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1',
  '[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2',
  '[&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-primary/50 [&_blockquote]:pl-4 [&_blockquote]:italic',
  '[&_code]:rounded [&_code]:bg-base-200 [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.85em]',
  '[&_pre]:my-4 [&_pre]:overflow-x-auto [&_pre]:rounded-box [&_pre]:bg-base-200 [&_pre]:p-4 [&_pre]:text-base [&_pre]:leading-normal [&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_table]:my-6 [&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:font-sans [&_table]:text-base [&_td]:[overflow-wrap:normal] [&_th]:border [&_th]:border-base-300 [&_th]:px-3 [&_th]:py-1 [&_td]:border [&_td]:border-base-300 [&_td]:px-3 [&_td]:py-1',
  '[&_img]:my-6 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-box [&_hr]:my-6 [&_hr]:border-base-300',
  '[&_figure]:my-6 [&_figure_img]:my-0 [&_figcaption]:mt-2 [&_figcaption]:font-sans [&_figcaption]:text-sm [&_figcaption]:opacity-80',
  // Each block takes its direction from its own first letters (as dir="auto" would), so a paragraph
  // in Arabic or Hebrew reads and aligns right to left, and its full stop sits at its end.
  '[&_:is(p,li,h1,h2,h3,h4,h5,h6,blockquote,figcaption)]:[unicode-bidi:plaintext]',
].join(' ');

const COPY = 'Copy';
const COPIED = 'Copied';

interface Shown {
  src: string;
  alt: string;
  caption: string;
}

/**
 * What the body's scripts add once the page runs: a copy button on each code block, a button
 * around each picture that opens it large, and the load buttons of video and audio placeholders.
 * Without scripts the body reads the same, with nothing to press that would do nothing.
 */
function enhance(root: HTMLElement) {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const block = document.createElement('div');
    block.className = 'code-block';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'code-copy btn btn-xs';
    button.dataset.copy = '';
    button.setAttribute('aria-label', 'Copy code');
    button.textContent = COPY;
    pre.replaceWith(block);
    block.append(pre, button);
  }
  for (const img of root.querySelectorAll('img')) {
    if (img.parentElement?.hasAttribute('data-lightbox')) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'lightbox-open';
    button.dataset.lightbox = '';
    button.setAttribute('aria-haspopup', 'dialog');
    button.setAttribute('aria-label', img.alt ? `Enlarge picture: ${img.alt}` : 'Enlarge picture');
    img.replaceWith(button);
    button.append(img);
  }
  for (const load of root.querySelectorAll<HTMLButtonElement>('[data-embed-load][hidden]')) load.hidden = false;
}

/** The largest width a picture has (its `srcset`'s last), for the enlarged view. */
const largest = (img: HTMLImageElement) => img.srcset.split(',').at(-1)?.trim().split(/\s+/)[0] || img.src;

/** The player, in the placeholder's place, only now: nothing was loaded from its site before. */
function loadEmbed(figure: HTMLElement) {
  const embed = embedFromData(figure.dataset.embed ?? '');
  if (!embed) return;
  const title = figure.querySelector('.embed-title')?.textContent ?? embed.url;
  const player = document.createElement(embed.kind === 'audio' ? 'audio' : 'iframe');
  player.setAttribute('src', playerUrl(embed));
  if (player instanceof HTMLIFrameElement) {
    player.title = `Video from ${embed.host}: ${title}`;
    player.allow = 'autoplay; encrypted-media; picture-in-picture; fullscreen';
    player.allowFullscreen = true;
    player.referrerPolicy = 'strict-origin-when-cross-origin';
  } else {
    player.controls = true;
    player.autoplay = true;
    player.setAttribute('aria-label', `Audio: ${title}`);
  }
  player.className = 'embed-player';
  player.tabIndex = -1;
  figure.querySelector('.embed-card')?.replaceWith(player);
  figure.dataset.loaded = '';
  player.focus();
}

export function MarkdownBody({ html, className = 'mt-8' }: { html: string; className?: string }) {
  const body = useRef<HTMLDivElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    if (body.current) enhance(body.current);
  }, [html]);

  useEffect(() => {
    if (shown && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [shown]);

  async function copy(button: HTMLElement) {
    const code = button.parentElement?.querySelector('pre')?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(code);
      button.textContent = COPIED;
      setStatus('Code copied to the clipboard.');
    } catch {
      setStatus('The code could not be copied here: select it and copy it yourself.');
    }
    setTimeout(() => {
      button.textContent = COPY;
      setStatus('');
    }, 2000);
  }

  function onClick(event: MouseEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    const copyButton = target.closest<HTMLElement>('[data-copy]');
    if (copyButton) return void copy(copyButton);
    const picture = target.closest<HTMLElement>('[data-lightbox]');
    const img = picture?.querySelector('img');
    if (picture && img) {
      opener.current = picture;
      setShown({ src: largest(img), alt: img.alt, caption: picture.closest('figure')?.querySelector('figcaption')?.textContent ?? '' });
      return;
    }
    const load = target.closest<HTMLElement>('[data-embed-load]');
    const figure = load?.closest<HTMLElement>('[data-embed]');
    if (figure) loadEmbed(figure);
  }

  function close() {
    dialog.current?.close();
  }

  return (
    <>
      {/* Clicks reach the buttons the body's script adds: each is a real button, so keys work too. */}
      <div ref={body} className={`${className} ${TYPOGRAPHY}`} data-testid="long-description" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
      <p role="status" className="sr-only">{status}</p>
      <dialog
        ref={dialog}
        className="modal"
        aria-label={shown?.alt ? `Picture: ${shown.alt}` : 'Picture'}
        data-testid="lightbox"
        onClose={() => {
          setShown(null);
          if (opener.current?.isConnected) opener.current.focus();
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) close();
        }}
      >
        {shown ? (
          <figure className="modal-box flex max-h-[95vh] w-auto max-w-[95vw] flex-col items-center gap-2 p-3">
            <img src={shown.src} alt={shown.alt} className="max-h-[80vh] w-auto max-w-full rounded-box object-contain" />
            {shown.caption ? <figcaption className="text-sm opacity-80">{shown.caption}</figcaption> : null}
            <button type="button" className="btn btn-sm" onClick={close} autoFocus>
              Close
            </button>
          </figure>
        ) : null}
      </dialog>
    </>
  );
}
