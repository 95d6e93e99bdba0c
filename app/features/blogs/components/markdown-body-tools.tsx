import { type RefObject, useEffect, useRef, useState } from 'react';
import { embedFromData, playerUrl } from '../markdown-embeds';

const COPY = 'Copy';
const COPIED = 'Copied';

interface Shown {
  src: string;
  alt: string;
  caption: string;
}

/**
 * What the body's scripts add once these tools have loaded: a copy button on each code block, a button
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

/** The status line and the enlarged picture's dialog beside a body, and the body's buttons (markdown-body.tsx). */
export default function BodyTools({ body, html }: { body: RefObject<HTMLDivElement | null>; html: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    if (body.current) enhance(body.current);
  }, [body, html]);

  useEffect(() => {
    if (shown && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [shown]);

  useEffect(() => {
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
    // Clicks reach the buttons enhance() added: each is a real button, so keys work too.
    function onClick(event: MouseEvent) {
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
    const element = body.current;
    element?.addEventListener('click', onClick);
    return () => element?.removeEventListener('click', onClick);
  }, [body]);

  function close() {
    dialog.current?.close();
  }

  return (
    <>
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
