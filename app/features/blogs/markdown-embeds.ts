/**
 * Video and audio links a writer puts alone on a line, shown as a placeholder that loads nothing
 * from the other site until the reader asks (docs/decisions/063). The render pool writes the
 * placeholder; the reader's page swaps in the player on a click (components/markdown-body.tsx),
 * from the kind and id here alone. The CSP's frame-src and media-src allow exactly these players.
 */

export type Embed =
  | { kind: 'youtube'; id: string; url: string; host: 'youtube.com' }
  | { kind: 'vimeo'; id: string; url: string; host: 'vimeo.com' }
  | { kind: 'audio'; url: string; host: string };

const YOUTUBE_ID = /^[\w-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const AUDIO_PATH = /\.(mp3|m4a|ogg|oga|opus|wav)$/i;

/** The players the reader's page may frame, and what it may play: the CSP says the same. */
export const PLAYER_ORIGINS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'] as const;

/** The link as an embed, or null when it is an ordinary link. Only https addresses qualify. */
export function embedOf(href: string): Embed | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  const host = url.hostname.replace(/^(www\.|m\.)/, '');
  const path = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id = path[0] === 'watch' && path.length === 1 ? url.searchParams.get('v') ?? undefined : ['embed', 'shorts', 'live'].includes(path[0] ?? '') && path.length === 2 ? path[1] : undefined;
  } else if (host === 'youtu.be' && path.length === 1) id = path[0];
  if (id !== undefined) return YOUTUBE_ID.test(id) ? { kind: 'youtube', id, url: `https://www.youtube.com/watch?v=${id}`, host: 'youtube.com' } : null;
  if (host === 'vimeo.com' && path.length === 1) id = path[0];
  else if (url.hostname === 'player.vimeo.com' && path[0] === 'video' && path.length === 2) id = path[1];
  if (id !== undefined) return VIMEO_ID.test(id) ? { kind: 'vimeo', id, url: `https://vimeo.com/${id}`, host: 'vimeo.com' } : null;
  if (AUDIO_PATH.test(url.pathname)) return { kind: 'audio', url: url.href, host };
  return null;
}

/** Where the reader's click loads the player from: YouTube's no-cookie host, Vimeo without tracking. */
export function playerUrl(embed: Embed): string {
  if (embed.kind === 'youtube') return `${PLAYER_ORIGINS[0]}/embed/${embed.id}?autoplay=1`;
  if (embed.kind === 'vimeo') return `${PLAYER_ORIGINS[1]}/video/${embed.id}?dnt=1&autoplay=1`;
  return embed.url;
}

/** The `data-embed` value the page reads back: nothing but the kind and id (or the audio's address). */
export const embedData = (embed: Embed): string => (embed.kind === 'audio' ? `audio:${embed.url}` : `${embed.kind}:${embed.id}`);

/** The `data-embed` value back as an embed, checked again: the page trusts no attribute. */
export function embedFromData(data: string): Embed | null {
  const at = data.indexOf(':');
  const kind = data.slice(0, at);
  const rest = data.slice(at + 1);
  if (kind === 'youtube') return embedOf(`https://youtu.be/${rest}`);
  if (kind === 'vimeo') return embedOf(`https://vimeo.com/${rest}`);
  const audio = kind === 'audio' ? embedOf(rest) : null;
  return audio?.kind === 'audio' ? audio : null;
}

const loadLabel = (embed: Embed): string => `Load ${embed.kind === 'audio' ? 'audio' : 'video'} from ${embed.host}`;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The placeholder: the link itself (readable and followable without scripts) and the button the
 * page's script shows, in a box the player's size, so nothing moves when it loads.
 */
export function embedPlaceholder(embed: Embed, title: string, rel: string): string {
  const what = embed.kind === 'audio' ? 'Audio' : 'Video';
  const box = embed.kind === 'audio' ? 'embed-audio' : 'embed-video';
  return (
    `<figure class="embed ${box}" data-embed="${escape(embedData(embed))}">` +
    `<div class="embed-card"><p class="embed-title"><a href="${escape(embed.url)}" rel="${escape(rel)}">${escape(title || embed.url)}</a></p>` +
    `<p class="embed-note">${what} on ${escape(embed.host)}. Nothing is loaded from ${escape(embed.host)} until you ask.</p>` +
    `<button type="button" class="btn btn-primary btn-sm" data-embed-load hidden>${escape(loadLabel(embed))}</button></div></figure>\n`
  );
}
