/**
 * Substack exports as Settings → Exports writes them: `posts.csv` (post_id is `<number>.<slug>`),
 * `posts/<post_id>.html` with Substack's own markup (captioned images through substackcdn,
 * YouTube wraps, subscribe widgets and buttons, footnotes), open/deliver statistics beside each
 * body, and `email_list.<publication>.csv`. `knownSubstack` holds posts a test checks field by
 * field; `bulkSubstack` adds hundreds with the odd cases.
 */
import type { ArchiveFiles } from './entries.ts';

export const SUBSTACK_SITE = 'https://dusk.substack.com';
const POST_COLUMNS = ['post_id', 'post_date', 'is_published', 'email_sent_at', 'inbox_sent_at', 'type', 'audience', 'title', 'subtitle', 'podcast_url'];
const LIST_COLUMNS = ['email', 'active_subscription', 'expiry', 'plan', 'email_disabled', 'title', 'comp', 'gift', 'created_at', 'first_payment_at'];

const cell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
export const csvText = (columns: string[], rows: Record<string, string>[]) => [columns.join(','), ...rows.map((row) => columns.map((c) => cell(row[c] ?? '')).join(','))].join('\r\n') + '\r\n';

export interface SubstackPost {
  id: number;
  slug: string;
  title: string;
  subtitle?: string;
  date: string; // ISO
  published?: boolean;
  type?: string;
  audience?: string;
  podcastUrl?: string;
  html?: string | null; // null: the body file is missing
}

export const cdnImage = (name: string) =>
  `https://substackcdn.com/image/fetch/w_1456,c_limit,f_auto,q_auto:good,fl_progressive:steep/https%3A%2F%2Fsubstack-post-media.s3.amazonaws.com%2Fpublic%2Fimages%2F${name}`;

export const captionedImage = (name: string, caption: string) =>
  `<div class="captioned-image-container"><figure><a class="image-link image2 is-viewable-img" target="_blank" href="${cdnImage(name)}"><div class="image2-inset"><picture><source type="image/webp" srcset="${cdnImage(name)} 424w"><img src="${cdnImage(name)}" width="1456" height="971" alt="" class="sizing-normal" loading="lazy"></picture><div class="image-link-expand"><svg></svg></div></div></a><figcaption class="image-caption">${caption}</figcaption></figure></div>`;

const subscribeWidget = `<div class="subscription-widget-wrap"><div class="subscription-widget show-subscribe"><div class="preamble"><p>Thanks for reading! Subscribe for free to receive new posts.</p></div><form class="subscription-widget-subscribe"><input type="email" class="email-input" name="email" placeholder="Type your email…"><input type="submit" class="button primary" value="Subscribe"></form></div></div>`;
const subscribeButton = `<p class="button-wrapper" data-attrs="{&quot;url&quot;:&quot;${SUBSTACK_SITE}/subscribe?&quot;}"><a class="button primary" href="${SUBSTACK_SITE}/subscribe?"><span>Subscribe now</span></a></p>`;

export function knownSubstackPosts(): SubstackPost[] {
  return [
    {
      id: 139_482_001,
      slug: 'the-first-letter',
      title: 'The first letter',
      subtitle: 'Why I <em>write</em> this',
      date: '2023-04-05T06:07:08.000Z',
      html: `<p>Hello, <strong>readers</strong>. See <a href="/p/the-second-letter">the next one</a>.<a class="footnote-anchor" id="footnote-anchor-1" href="#footnote-1">1</a></p>${captionedImage('a1b2.jpeg', 'The harbour at dusk')}<div id="youtube2-dQw4w9WgXcQ" class="youtube-wrap" data-attrs="{&quot;videoId&quot;:&quot;dQw4w9WgXcQ&quot;}"><div class="youtube-inner"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&amp;autoplay=0&amp;showinfo=0&amp;enablejsapi=0" frameborder="0" loading="lazy" allowfullscreen></iframe></div></div>${subscribeWidget}<pre><code>npm install afterglow</code></pre>${subscribeButton}<div class="footnote"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number">1</a><div class="footnote-content"><p>A footnote.</p></div></div>`,
    },
    { id: 139_482_002, slug: 'paid-only', title: 'For paying readers', date: '2023-05-01T00:00:00.000Z', audience: 'only_paid', html: '<p>Thank you for your support.</p>' },
    { id: 139_482_003, slug: 'members', title: 'For subscribers', date: '2023-05-02T00:00:00.000Z', audience: 'only_free', html: '<p>Free members only.</p>' },
    { id: 139_482_004, slug: 'episode-1', title: 'Episode 1', date: '2023-06-01T00:00:00.000Z', type: 'podcast', podcastUrl: 'https://api.substack.com/feed/podcast/139482004/abc.mp3', html: '<p>Show notes.</p>' },
    { id: 139_482_005, slug: 'draft-idea', title: 'A draft idea', date: '', published: false, html: '<p>Half a thought</p>' },
    { id: 139_482_006, slug: 'open-thread', title: 'Open thread', date: '2023-07-01T00:00:00.000Z', type: 'thread', html: '' },
    { id: 139_482_007, slug: 'lost-body', title: 'Lost body', date: '2023-07-02T00:00:00.000Z', html: null },
  ];
}

const RTL = 'שלום לכולם, זה מכתב בעברית.';
const EMOJI = '🌇 Golden hour 🧡';

export function bulkSubstackPosts(count: number): SubstackPost[] {
  const posts: SubstackPost[] = [];
  for (let n = 0; n < count; n++) {
    const odd = n % 5;
    posts.push({
      id: 200_000_000 + n,
      slug: n % 40 === 7 ? 'weekly-notes' : `letter-${n}`, // a reused slug
      title: odd === 1 ? `${EMOJI} ${n}` : odd === 2 ? `${RTL} ${n}` : `Letter ${n}`,
      subtitle: n % 2 ? `Subtitle ${n}` : '',
      date: new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString(),
      html:
        odd === 3
          ? `<p>Broken <em>markup<div>${captionedImage(`bulk-${n}.png`, 'caption <b>never closed')}`
          : `<p>${odd === 2 ? RTL : `Letter body ${n}`} ${EMOJI}</p>${n % 4 === 0 ? captionedImage(`bulk-${n}.png`, `Picture ${n}`) : ''}`,
    });
  }
  return posts;
}

export function subscriberRows(count: number): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  for (let n = 0; n < count; n++) {
    rows.push({
      email: n % 50 === 49 ? `not-an-address-${n}` : `Reader.${n}@Mail.example`,
      active_subscription: n % 10 === 0 ? 'true' : 'false',
      plan: n % 10 === 0 ? 'yearly' : 'other',
      email_disabled: n % 25 === 0 ? 'true' : 'false',
      created_at: new Date(Date.UTC(2021, 0, 1) + n * 3_600_000).toISOString(),
    });
  }
  return rows;
}

/** Substack's subscriber list (`email_list.<publication>.csv`) with the given rows. */
export const substackListCsv = (subscribers: Record<string, string>[]) => csvText(LIST_COLUMNS, subscribers);

/** The export's files: posts.csv, the bodies, the statistics beside them, the subscriber list. */
export function substackArchive(posts: SubstackPost[], subscribers: Record<string, string>[], folder = ''): ArchiveFiles {
  const files: ArchiveFiles = new Map();
  files.set(
    `${folder}posts.csv`,
    csvText(POST_COLUMNS, posts.map((p) => ({
      post_id: `${p.id}.${p.slug}`,
      post_date: p.date,
      is_published: String(p.published ?? true),
      email_sent_at: p.published === false ? '' : p.date,
      inbox_sent_at: '',
      type: p.type ?? 'newsletter',
      audience: p.audience ?? 'everyone',
      title: p.title,
      subtitle: p.subtitle ?? '',
      podcast_url: p.podcastUrl ?? '',
    }))),
  );
  for (const p of posts) {
    if (p.html === null) continue;
    files.set(`${folder}posts/${p.id}.${p.slug}.html`, p.html ?? '');
    files.set(`${folder}posts/${p.id}.${p.slug}.opens.csv`, 'email,timestamp\r\n');
    files.set(`${folder}posts/${p.id}.${p.slug}.delivers.csv`, 'email,timestamp\r\n');
  }
  files.set(`${folder}email_list.dusk.csv`, substackListCsv(subscribers));
  return files;
}
