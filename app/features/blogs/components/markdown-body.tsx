import { type ComponentType, type RefObject, useEffect, useRef, useState } from 'react';
import { lazy } from '~/lib/page/lazy';

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

/** A body with these has something the page's scripts add to (markdown-body-tools.tsx). */
const ENHANCED = 'pre, img, [data-embed]';
type Tools = ComponentType<{ body: RefObject<HTMLDivElement | null>; html: string }>;
const loadTools = lazy(() => import('./markdown-body-tools'));

/**
 * The body's copy buttons, enlarged pictures and players are code that a body of plain text never
 * runs, and that nobody uses before the page has painted: it loads after hydration, and only for a
 * body that has code, pictures or a player (docs/decisions/077). Without scripts the body reads the
 * same, with nothing to press that would do nothing.
 */
export function MarkdownBody({ html, className = 'mt-8' }: { html: string; className?: string }) {
  const body = useRef<HTMLDivElement>(null);
  const [tools, setTools] = useState<{ default: Tools } | null>(null);
  useEffect(() => {
    if (!tools && body.current?.querySelector(ENHANCED)) void loadTools().then(setTools, () => {});
  }, [html, tools]);
  return (
    <>
      <div ref={body} className={`${className} ${TYPOGRAPHY}`} data-testid="long-description" dangerouslySetInnerHTML={{ __html: html }} />
      {tools ? <tools.default body={body} html={html} /> : null}
    </>
  );
}
