import type { ZipMember } from './archives';
import { type GhostMemberRow, ghostMembersCsv } from './archives/ghost-members';
import { captionedImage, csvText, SUBSTACK_SITE } from './archives/substack';
import { mediumArchive, type MediumStory } from './archives/medium';
import { wxr, type WxrComment, type WxrItem } from './archives/wordpress';
import { type ImageServer, serve } from './image-server';
import { jpegImage } from './images';

/**
 * One old blog of several hundred posts, written out in each format the importer reads, for the
 * browser journeys of tests/e2e/import-formats-*.e2e.test.ts. Every format carries the same odd
 * posts at the same places, so each test checks the same things: an emoji title, Arabic and
 * Hebrew posts, two posts sharing a slug, broken HTML, an empty body, a picture that cannot be
 * had, a draft and a title longer than ours. Twenty posts carry a picture each: inside the archive
 * where the format holds pictures (Ghost, Jekyll, Hugo), else at the local image server.
 */

export const EMOJI_TITLE = 'Sunsets 🌅 and coffee ☕️ with friends 👩‍👩‍👧';
export const ARABIC_TITLE = 'مرحبا بالعالم، هذه تدوينة عن السفر إلى الصحراء';
export const ARABIC_TEXT = 'سافرنا إلى الصحراء في الربيع، وكانت الرمال دافئة والسماء صافية.';
export const HEBREW_TITLE = 'שלום עולם, זו רשימה על הים';
export const HEBREW_TEXT = 'הלכנו לחוף הים בבוקר, והמים היו קרים וצלולים.';
export const LONG_TITLE = `A very long title about everything that happened on the way ${'and then some more '.repeat(14)}the end`;
/** How our posts show a title longer than they hold (the writer clips it with an ellipsis). */
export const LONG_TITLE_SHOWN = `${LONG_TITLE.slice(0, 199)}…`;

/** The posts at the odd places (index in the archive). */
export const ODD = { emoji: 1, arabic: 2, hebrew: 3, longTitle: 4, sameSlugA: 5, sameSlugB: 6, broken: 7, empty: 8, missingImage: 9, draft: 12 } as const;
/** Posts FIRST_PICTURE … FIRST_PICTURE + PICTURES - 1 carry picture n - FIRST_PICTURE. */
export const FIRST_PICTURE = 10;
export const PICTURES = 20;
/** Pictures below this number are in the archive (for formats that carry pictures); the rest at the image server. */
export const IN_ARCHIVE = 10;

export interface PlannedPost {
  n: number;
  title: string;
  slug: string;
  /** The body as the platform's HTML. */
  html: string;
  /** The body as Markdown (static sites). */
  markdown: string;
  draft: boolean;
  /** The source's category (Ghost: its primary tag). */
  category: string;
  picture: number | 'missing' | null;
  date: Date;
}

export const CATEGORY_NAMES = ['Travel', 'Programming', 'Cooking'] as const;
/** Our categories the three source names become by default. */
export const DEFAULT_MAPPING: Record<string, string> = { Travel: 'Travelling & Photography', Programming: 'Technology', Cooking: 'Food & Health' };

const BROKEN_HTML = '<p>Unclosed <b>bold <i>and italic<p>a <div>stray</span> tag</div></div> and the end';

/** Where a picture is: `archive` as the archive names it, `url` at the image server. */
export type PictureAt = (k: number | 'missing') => string;

/** The plan every format writes out: `count` posts, published every three days from 2012 on. */
export function planPosts(count: number, pictureAt: PictureAt): PlannedPost[] {
  const posts: PlannedPost[] = [];
  for (let n = 0; n < count; n++) {
    const title =
      n === ODD.emoji ? EMOJI_TITLE : n === ODD.arabic ? ARABIC_TITLE : n === ODD.hebrew ? HEBREW_TITLE : n === ODD.longTitle ? LONG_TITLE : `Moving day ${n}`;
    const text = n === ODD.emoji ? `Coffee ☕️ at dawn 🌅 post ${n}.` : n === ODD.arabic ? ARABIC_TEXT : n === ODD.hebrew ? HEBREW_TEXT : `Paragraph of post ${n}. A second sentence.`;
    const picture = n >= FIRST_PICTURE && n < FIRST_PICTURE + PICTURES ? n - FIRST_PICTURE : n === ODD.missingImage ? 'missing' : null;
    const src = picture === null ? null : pictureAt(picture);
    const html = n === ODD.empty ? '' : n === ODD.broken ? BROKEN_HTML : `<p>${text}</p>${src ? `<p><img src="${src}" alt="Picture ${picture}"></p>` : ''}`;
    const markdown = n === ODD.empty ? '' : n === ODD.broken ? BROKEN_HTML : `${text}${src ? `\n\n![Picture ${picture}](${src})` : ''}`;
    posts.push({
      n,
      title,
      slug: n === ODD.sameSlugB || n === ODD.sameSlugA ? 'same-slug' : `moving-day-${n}`,
      html,
      markdown,
      draft: n === ODD.draft,
      category: CATEGORY_NAMES[n % 3]!,
      picture,
      date: new Date(Date.UTC(2012, 0, 1) + n * 3 * 86_400_000),
    });
  }
  return posts;
}

/** What a plan of `count` posts comes to (the same in every format, comments aside). */
export function planTotals(count: number) {
  return {
    posts: count,
    /** Public posts (All blogs shows them): all but the draft. */
    visible: count - 1,
    pictures: PICTURES,
  };
}

/** The twenty pictures, each its own bytes (so each is stored once), served by the image server under /pictures/. */
export async function servePictures(images: ImageServer): Promise<Buffer[]> {
  const bytes: Buffer[] = [];
  for (let k = 0; k < PICTURES; k++) {
    const picture = await jpegImage(480 + k * 8, 320);
    bytes.push(picture);
    images.route(`/pictures/picture-${k}.jpg`, serve(picture));
  }
  return bytes;
}

export const pictureUrl = (images: ImageServer, k: number | 'missing') => `${images.url}/pictures/${k === 'missing' ? 'gone' : `picture-${k}`}.jpg`;
/** How many of the image server's requests asked for a picture. */
export const pictureRequests = (images: ImageServer) => images.requests.filter((r) => r.startsWith('/pictures/')).length;

const iso = (date: Date) => date.toISOString();
const wpDate = (date: Date) => iso(date).replace('T', ' ').slice(0, 19);

/** The members of the Ghost blog: two Ghost mails (one a paying member), one it no longer mails. */
export const GHOST_MEMBERS: GhostMemberRow[] = [
  { id: 'm1', email: 'Reader.One@Mail.example', name: 'Reader One', subscribed_to_emails: 'true', created_at: '2021-01-01T00:00:00.000Z', labels: 'Early' },
  { id: 'm2', email: 'gone@mail.example', name: 'Gone Reader', subscribed_to_emails: 'false', created_at: '2021-01-02T00:00:00.000Z' },
  { id: 'm3', email: 'patron@mail.example', name: 'Pat Ron', subscribed_to_emails: 'true', stripe_customer_id: 'cus_1', created_at: '2021-01-03T00:00:00.000Z', tiers: 'Gold' },
];

/** A Ghost 5 export zip: ghost.json (in its db wrapper) with content/images/ beside it, and the members CSV Ghost exports apart. */
export function ghostZip(images: ImageServer, pictures: Buffer[], count: number): { members: ZipMember[]; plan: PlannedPost[] } {
  const at: PictureAt = (k) => (k === 'missing' ? '__GHOST_URL__/content/images/2020/01/missing.jpg' : k < IN_ARCHIVE ? `__GHOST_URL__/content/images/2020/01/picture-${k}.jpg` : pictureUrl(images, k));
  const plan = planPosts(count, at);
  const tags = CATEGORY_NAMES.map((name, i) => ({ id: `tag-${i}`, name, slug: name.toLowerCase() }));
  const data = {
    posts: plan.map((p) => ({
      id: `moving-${p.n}`,
      uuid: `uuid-moving-${p.n}`,
      title: p.title,
      slug: p.slug,
      html: p.html,
      mobiledoc: null,
      lexical: null,
      status: p.draft ? 'draft' : 'published',
      visibility: 'public',
      type: 'post',
      feature_image: null,
      custom_excerpt: null,
      published_at: iso(p.date),
      updated_at: iso(p.date),
      created_at: iso(p.date),
    })),
    tags,
    posts_tags: plan.map((p) => ({ id: `pt-${p.n}`, post_id: `moving-${p.n}`, tag_id: `tag-${p.n % 3}`, sort_order: 0 })),
    users: [{ id: 'user-1', name: 'Mo Ving', email: 'mo@old.example', bio: null, profile_image: null }],
    posts_authors: plan.map((p) => ({ id: `pa-${p.n}`, post_id: `moving-${p.n}`, author_id: 'user-1', sort_order: 0 })),
  };
  const members: ZipMember[] = [{ name: 'moving.ghost.2024-11-20.json', body: JSON.stringify({ db: [{ meta: { exported_on: 1, version: '5.96.0' }, data }] }) }];
  for (let k = 0; k < IN_ARCHIVE; k++) members.push({ name: `content/images/2020/01/picture-${k}.jpg`, body: pictures[k]!, store: true });
  members.push({ name: 'members.2024-11-20.csv', body: ghostMembersCsv(GHOST_MEMBERS) });
  return { members, plan };
}

/** Every tenth post's thread: a reader, the writer's reply, the reader's answer; beside it spam and one awaiting moderation. */
function wxrThread(p: PlannedPost): WxrComment[] {
  const id = 100_000 + p.n * 10;
  const date = wpDate(new Date(p.date.getTime() + 3_600_000));
  return [
    { id, author: `Reader ${p.n}`, url: 'https://reader.example.org', date, content: `First comment on ${p.n} 🌅` },
    { id: id + 1, parent: id, author: 'Mo Ving', date, content: `Thank you, reader ${p.n}.` },
    { id: id + 2, parent: id + 1, author: `Reader ${p.n}`, date, content: `${ARABIC_TEXT} ${p.n}` },
    { id: id + 3, author: 'Cheap Pills', date, content: 'buy now', approved: 'spam' },
    { id: id + 4, author: 'Linus', date, content: 'Waiting for moderation', approved: '0' },
  ];
}
export const WXR_THREADED = (count: number) => Math.ceil(count / 10);

/** A WordPress export (WXR 1.2), the .xml file Tools → Export writes, with comment threads. */
export function wordpressXml(images: ImageServer, count: number): { xml: string; plan: PlannedPost[] } {
  const plan = planPosts(count, (k) => pictureUrl(images, k));
  const items: WxrItem[] = plan.map((p) => ({
    id: 1000 + p.n,
    title: p.title,
    slug: p.slug,
    status: p.draft ? 'draft' : 'publish',
    date: wpDate(p.date),
    content: p.html,
    categories: [p.category],
    comments: p.n % 10 === 0 ? wxrThread(p) : [],
  }));
  items.push({ id: 50, type: 'page', title: 'About me', slug: 'about', date: '2012-01-01 00:00:00', content: 'About.' });
  return { xml: wxr(items), plan };
}

/** A Substack export zip: posts.csv, posts/<id>.<slug>.html, the subscriber list. */
export function substackZip(images: ImageServer, count: number): { members: ZipMember[]; plan: PlannedPost[] } {
  const plan = planPosts(count, (k) => pictureUrl(images, k));
  const id = (p: PlannedPost) => `${300_000_000 + p.n}.${p.slug}`;
  const rows = plan.map((p) => ({
    post_id: id(p),
    post_date: p.draft ? '' : iso(p.date),
    is_published: String(!p.draft),
    email_sent_at: p.draft ? '' : iso(p.date),
    type: 'newsletter',
    audience: 'everyone',
    title: p.title,
    subtitle: '',
    podcast_url: '',
  }));
  rows.push({ post_id: '399999999.open-thread', post_date: iso(plan[0]!.date), is_published: 'true', email_sent_at: '', type: 'thread', audience: 'everyone', title: 'Open thread', subtitle: '', podcast_url: '' });
  const members: ZipMember[] = [
    { name: 'posts.csv', body: csvText(['post_id', 'post_date', 'is_published', 'email_sent_at', 'inbox_sent_at', 'type', 'audience', 'title', 'subtitle', 'podcast_url'], rows) },
    {
      name: 'email_list.moving.csv',
      body: csvText(['email', 'active_subscription', 'expiry', 'plan', 'email_disabled', 'title', 'comp', 'gift', 'created_at', 'first_payment_at'], [
        { email: 'Reader.One@Mail.example', active_subscription: 'false', plan: 'other', email_disabled: 'false', created_at: '2021-01-01T00:00:00.000Z' },
        { email: 'gone@mail.example', active_subscription: 'false', plan: 'other', email_disabled: 'true', created_at: '2021-01-02T00:00:00.000Z' },
      ]),
    },
  ];
  for (const p of plan) {
    // Substack wraps its pictures in its captioned-image markup; the picture's address is the image server's.
    const body = p.picture !== null ? p.html.replace(/<p><img src="([^"]+)" alt="[^"]*"><\/p>/, (_m, src: string) => captionedImage('x', `Picture ${p.picture}`).replaceAll(/https:\/\/substackcdn\.com[^"\s]*/g, src)) : p.html;
    members.push({ name: `posts/${id(p)}.html`, body });
    members.push({ name: `posts/${id(p)}.opens.csv`, body: 'email,timestamp\r\n' });
  }
  return { members, plan };
}
export { SUBSTACK_SITE };

/** A Medium export zip: posts/ with one h-entry page per story (a response among them) beside the other folders. */
export function mediumZip(images: ImageServer, count: number): { members: ZipMember[]; plan: PlannedPost[] } {
  const plan = planPosts(count, (k) => pictureUrl(images, k));
  const stories: MediumStory[] = plan.map((p) => ({
    id: (0x200000000000 + p.n).toString(16),
    slug: p.slug,
    title: p.title,
    date: p.draft ? undefined : iso(p.date),
    draft: p.draft,
    grafs: p.html
      .replace(/<p><img src="([^"]+)" alt="[^"]*"><\/p>/, '<figure class="graf graf--figure"><img class="graf-image" data-image-id="x" src="$1"></figure>')
      .replace(/<p>/g, '<p class="graf graf--p">'),
  }));
  stories.push({ id: '2fffffffffff', slug: 'great-point', title: 'Great point, thanks', date: iso(plan[0]!.date), titleGraf: false, grafs: '<p class="graf graf--p graf--leading">Great point, thanks for writing this.</p>' });
  const files = mediumArchive(stories);
  return { members: [...files].map(([name, body]) => ({ name, body })), plan };
}
export const mediumId = (n: number) => (0x200000000000 + n).toString(16);

const yamlString = (text: string) => JSON.stringify(text);

/** A Jekyll site zipped in its folder: _posts/ with YAML front matter, pictures in assets/. */
export function jekyllZip(images: ImageServer, pictures: Buffer[], count: number): { members: ZipMember[]; plan: PlannedPost[] } {
  const at: PictureAt = (k) => (k === 'missing' ? '/assets/img/missing.jpg' : k < IN_ARCHIVE ? `/assets/img/picture-${k}.jpg` : pictureUrl(images, k));
  const plan = planPosts(count, at);
  const members: ZipMember[] = [];
  for (const p of plan) {
    const day = iso(p.date).slice(0, 10);
    members.push({
      name: `my-site/_posts/${day}-${p.slug}.md`,
      body: `---\nlayout: post\ntitle: ${yamlString(p.title)}\ndate: ${day} 10:00:00 +0000\ncategories: [${p.category.toLowerCase()}]\n${p.draft ? 'published: false\n' : ''}redirect_from:\n  - /old/${p.n}/\n---\n${p.markdown}\n`,
    });
  }
  for (let k = 0; k < IN_ARCHIVE; k++) members.push({ name: `my-site/assets/img/picture-${k}.jpg`, body: pictures[k]!, store: true });
  members.push({ name: 'my-site/_config.yml', body: 'title: Moving\n' });
  return { members, plan };
}

/**
 * A Hugo site zipped: content/posts/<year>/<slug>.md with TOML front matter (the two posts sharing
 * a slug claim the same default address), pictures in page bundles and static/.
 */
export function hugoZip(images: ImageServer, pictures: Buffer[], count: number): { members: ZipMember[]; plan: PlannedPost[] } {
  // Hugo's page bundles keep a post's pictures beside its index.md; the others sit in static/.
  const at: PictureAt = (k) => (k === 'missing' ? '/images/missing.jpg' : k < IN_ARCHIVE ? `/images/picture-${k}.jpg` : pictureUrl(images, k));
  const plan = planPosts(count, at);
  const toml = (text: string) => JSON.stringify(text);
  const members: ZipMember[] = [];
  for (const p of plan) {
    const folder = p.n === ODD.sameSlugB ? 'old' : iso(p.date).slice(0, 4);
    members.push({
      name: `content/posts/${folder}/${p.slug}.md`,
      body: `+++\ntitle = ${toml(p.title)}\ndate = ${iso(p.date)}\ncategories = [${toml(p.category)}]\ndraft = ${p.draft}\naliases = ["/archive/${p.n}/"]\n+++\n${p.markdown}\n`,
    });
  }
  for (let k = 0; k < IN_ARCHIVE; k++) members.push({ name: `static/images/picture-${k}.jpg`, body: pictures[k]!, store: true });
  members.push({ name: 'config.toml', body: 'title = "Moving"\n' });
  return { members, plan };
}
