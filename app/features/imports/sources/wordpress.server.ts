/**
 * WordPress's export (WXR 1.2, the XML of Tools → Export) as an import bundle (docs/decisions/073).
 * Read as a stream with a SAX parser: a file of any size costs the bundle, not a tree of it. A
 * file that declares a DTD (external entities, entity expansion) or nests deeper than any export
 * does is refused before anything is built. Posts only: pages, attachments, revisions and menu
 * items are not posts; attachments serve the featured images and galleries.
 */
import { SaxesParser } from 'saxes';
import { htmlToMarkdown, htmlToText, markdownImageUrls, resolveUrl } from '../html-to-markdown.server.ts';
import { type ArchiveEntries, ArchiveRefused, type ImportAuthor, type ImportBundle, type ImportComment, type ImportPost, POST_CHUNK, type ReadOptions } from '../import-model.ts';

/** WXR is five levels deep (rss › channel › item › wp:comment › field); nothing real comes near this. */
export const WXR_MAX_DEPTH = 64;
/** The longest text one element may hold (a post's HTML with pictures inlined stays far below). */
export const WXR_MAX_FIELD = 32 * 1024 * 1024;
/**
 * The most text parsed (and so the most items converted to Markdown) before the reader yields to
 * the event loop: a few dozen posts, so pages keep being answered while an import reads its
 * export in the server process (docs/benchmarks.md, "Import while read").
 */
const CHUNK = 32 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface RawComment {
  id: string;
  parent: string;
  author: string;
  url: string;
  dateGmt: string;
  date: string;
  content: string;
  approved: string;
  type: string;
}
interface RawItem {
  title: string;
  link: string;
  pubDate: string;
  creator: string;
  content: string;
  excerpt: string;
  postId: string;
  postDateGmt: string;
  modifiedGmt: string;
  postName: string;
  status: string;
  postParent: string;
  postType: string;
  password: string;
  attachmentUrl: string;
  categories: string[];
  tags: string[];
  meta: Map<string, string>;
  comments: RawComment[];
}

const newItem = (): RawItem => ({
  title: '', link: '', pubDate: '', creator: '', content: '', excerpt: '', postId: '', postDateGmt: '', modifiedGmt: '',
  postName: '', status: '', postParent: '', postType: '', password: '', attachmentUrl: '', categories: [], tags: [], meta: new Map(), comments: [],
});
const newComment = (): RawComment => ({ id: '', parent: '', author: '', url: '', dateGmt: '', date: '', content: '', approved: '', type: '' });

const ITEM_FIELDS: Partial<Record<string, keyof RawItem>> = {
  title: 'title', link: 'link', pubDate: 'pubDate', 'dc:creator': 'creator', 'content:encoded': 'content', 'excerpt:encoded': 'excerpt',
  'wp:post_id': 'postId', 'wp:post_date_gmt': 'postDateGmt', 'wp:post_modified_gmt': 'modifiedGmt', 'wp:post_name': 'postName',
  'wp:status': 'status', 'wp:post_parent': 'postParent', 'wp:post_type': 'postType', 'wp:post_password': 'password', 'wp:attachment_url': 'attachmentUrl',
};
const COMMENT_FIELDS: Partial<Record<string, keyof RawComment>> = {
  'wp:comment_id': 'id', 'wp:comment_parent': 'parent', 'wp:comment_author': 'author', 'wp:comment_author_url': 'url', 'wp:comment_date_gmt': 'dateGmt',
  'wp:comment_date': 'date', 'wp:comment_content': 'content', 'wp:comment_approved': 'approved', 'wp:comment_type': 'type',
};
const AUTHOR_FIELDS: Partial<Record<string, string>> = {
  'wp:author_login': 'login', 'wp:author_email': 'email', 'wp:author_display_name': 'name', 'wp:author_first_name': 'first', 'wp:author_last_name': 'last',
};

/** WordPress's `Y-m-d H:i:s` in UTC (or an RSS date) as ISO; its zero date is no date. */
function wpDate(gmt: string, fallback = ''): string | null {
  const plain = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(gmt.trim());
  if (plain && !plain[1]!.startsWith('0000')) {
    const date = new Date(`${plain[1]}T${plain[2]}Z`);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  if (fallback.trim()) {
    const date = new Date(fallback.trim());
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return null;
}

/** The decoder for the encoding the XML declaration names (UTF-8 when it names none). */
function declaredDecoder(file: string, first: Uint8Array): TextDecoder {
  const head = Buffer.from(first.subarray(0, 200)).toString('latin1');
  const label = /^\uFEFF?<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/.exec(head.replace(/^\u00EF\u00BB\u00BF/, ''))?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label);
  } catch {
    throw new ArchiveRefused(`${file}: written in an encoding this server cannot read (${label}).`);
  }
}

/** A chunked pass over the export's text, whatever it arrived as. */
async function* xmlChunks(input: ArchiveEntries | Buffer | AsyncIterable<Uint8Array>): AsyncGenerator<{ file: string; text: string }> {
  const decode = async function* (file: string, source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {
    let decoder: TextDecoder | null = null;
    for await (const bytes of source) {
      // WordPress writes the site's charset in the XML declaration; nearly always UTF-8.
      decoder ??= declaredDecoder(file, bytes);
      for (let at = 0; at < bytes.length; at += CHUNK) yield { file, text: decoder.decode(bytes.subarray(at, at + CHUNK), { stream: true }) };
    }
    decoder ??= new TextDecoder('utf-8');
    yield { file, text: decoder.decode() };
  };
  const slices = function* (buffer: Buffer) {
    for (let at = 0; at < buffer.length; at += CHUNK) yield buffer.subarray(at, at + CHUNK);
  };
  if (Buffer.isBuffer(input)) yield* decode('export', slices(input));
  else if (Symbol.asyncIterator in input) yield* decode('export', input);
  else {
    const files = input.list().filter((path) => /\.xml$/i.test(path) && !/(^|\/)(__MACOSX|\.)/.test(path)).sort();
    if (files.length === 0) throw new ArchiveRefused('The archive holds no WordPress export (.xml) file.');
    // Read as it is parsed where the archive can (docs/decisions/095): the export is never held whole.
    for (const file of files) yield* decode(file, input.stream ? input.stream(file) : slices(await input.read(file)));
  }
}

interface Collected {
  siteUrl: string | null;
  siteTitle: string | null;
  authors: Map<string, ImportAuthor>;
}

/**
 * The export's channel and items, parsed as a stream with every hostile shape refused; each item
 * is handed on as it closes, so no item's HTML outlives its conversion.
 */
async function collect(input: ArchiveEntries | Buffer | AsyncIterable<Uint8Array>, onItem: (item: RawItem, siteUrl: string | null) => void, drain: () => Promise<void>): Promise<Collected> {
  const out: Collected = { siteUrl: null, siteTitle: null, authors: new Map() };
  let parser: SaxesParser | null = null;
  let currentFile = '';
  let stack: string[] = [];
  let text = '';
  let rooted = false;
  let carry = '';
  let item: RawItem | null = null;
  let comment: RawComment | null = null;
  let author: Record<string, string> | null = null;
  let metaKey = '';
  let metaValue = '';
  let category: { domain: string } | null = null;

  const start = (file: string) => {
    currentFile = file;
    stack = [];
    rooted = false;
    carry = '';
    parser = new SaxesParser({ xmlns: false, position: false });
    parser.on('doctype', () => {
      throw new ArchiveRefused(`${file}: the export declares a DTD (entities); WordPress exports never do, so it is refused.`);
    });
    parser.on('opentag', (node) => {
      rooted = true;
      stack.push(node.name);
      if (stack.length > WXR_MAX_DEPTH) throw new ArchiveRefused(`${file}: elements nest more than ${WXR_MAX_DEPTH} levels deep; no WordPress export does, so it is refused.`);
      text = '';
      const parent = stack[stack.length - 2];
      if (node.name === 'item' && parent === 'channel') item = newItem();
      else if (node.name === 'wp:comment' && item) comment = newComment();
      else if (node.name === 'wp:author' && parent === 'channel') author = {};
      else if (node.name === 'category' && item && parent === 'item') category = { domain: String(node.attributes.domain ?? '') };
      else if (node.name === 'wp:postmeta' && item) metaKey = metaValue = '';
    });
    const onText = (chunk: string) => {
      if (text.length + chunk.length > WXR_MAX_FIELD) throw new ArchiveRefused(`${file}: one element holds more than ${WXR_MAX_FIELD / 1024 / 1024} MB of text; refused.`);
      text += chunk;
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('closetag', (node) => {
      const name = node.name;
      // The parser's text is a slice of its whole input chunk; a short field kept as it is would
      // keep the chunk alive with it. Bodies are converted and dropped, so only they stay slices.
      if (name !== 'content:encoded' && text.length > 0) text = Buffer.from(text, 'utf8').toString('utf8');
      stack.pop();
      const parent = stack[stack.length - 1];
      if (comment && parent === 'wp:comment') {
        const field = COMMENT_FIELDS[name];
        if (field) comment[field] = text;
      } else if (name === 'wp:comment' && comment && item) {
        item.comments.push(comment);
        comment = null;
      } else if (author && parent === 'wp:author') {
        const field = AUTHOR_FIELDS[name];
        if (field) author[field] = text.trim();
      } else if (name === 'wp:author' && author) {
        const login = author.login ?? '';
        if (login && !out.authors.has(login)) {
          const full = [author.first, author.last].filter(Boolean).join(' ');
          out.authors.set(login, { sourceId: login, name: author.name || full || login, email: author.email || null, bio: null, avatar: null });
        }
        author = null;
      } else if (item && parent === 'wp:postmeta') {
        if (name === 'wp:meta_key') metaKey = text.trim();
        if (name === 'wp:meta_value') metaValue = text;
      } else if (item && name === 'wp:postmeta') {
        if (metaKey) item.meta.set(metaKey, metaValue);
      } else if (item && name === 'category' && category) {
        const label = text.trim();
        if (label && category.domain === 'category' && !item.categories.includes(label)) item.categories.push(label);
        if (label && category.domain === 'post_tag' && !item.tags.includes(label)) item.tags.push(label);
        category = null;
      } else if (item && parent === 'item') {
        const field = ITEM_FIELDS[name];
        if (field) (item[field] as string) = text;
      } else if (name === 'item' && item) {
        const closed: RawItem = item;
        item = null;
        onItem(closed, out.siteUrl);
      } else if (parent === 'channel' && !item) {
        if (name === 'wp:base_blog_url' && text.trim()) out.siteUrl = text.trim();
        if (name === 'link' && !out.siteUrl && text.trim()) out.siteUrl = text.trim();
        if (name === 'title' && text.trim()) out.siteTitle = text.trim();
      }
      text = '';
    });
  };

  const finish = () => {
    if (!parser) return;
    (parser as SaxesParser).close();
    if (!rooted) throw new ArchiveRefused(`${currentFile}: no XML in the file.`);
    parser = null;
  };

  try {
    for await (const { file, text: chunk } of xmlChunks(input)) {
      if (file !== currentFile || !parser) {
        finish();
        start(file);
      }
      // Before the root element, a DOCTYPE is refused as soon as it starts: the parser would
      // otherwise gather the whole declaration first.
      const seen = carry + chunk;
      const root = rooted ? -1 : seen.search(/<[A-Za-z_]/);
      if (!rooted && /<!DOCTYPE|<!ENTITY/i.test(root === -1 ? seen : seen.slice(0, root))) throw new ArchiveRefused(`${file}: the export declares a DTD (entities); WordPress exports never do, so it is refused.`);
      carry = chunk.slice(-16);
      (parser as unknown as SaxesParser).write(chunk);
      await drain();
      // A buffer's slices come without waiting on anything: without this turn, the whole export
      // would be parsed and converted in one go, every request waiting behind it.
      await nextTurn();
    }
    finish();
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    throw new ArchiveRefused(`${currentFile}: not a readable WordPress export (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`);
  }
  return out;
}

const SHORTCODE_ATTRS = /(\w+)\s*=\s*"([^"]*)"|(\w+)\s*=\s*'([^']*)'|(\w+)\s*=\s*([^\s'"\]]+)|"([^"]*)"|(\S+)/g;
function shortcodeAttrs(raw: string): { named: Record<string, string>; positional: string[] } {
  const named: Record<string, string> = {};
  const positional: string[] = [];
  for (const m of raw.matchAll(SHORTCODE_ATTRS)) {
    if (m[1]) named[m[1].toLowerCase()] = m[2]!;
    else if (m[3]) named[m[3].toLowerCase()] = m[4]!;
    else if (m[5]) named[m[5].toLowerCase()] = m[6]!;
    else positional.push((m[7] ?? m[8])!);
  }
  return { named, positional };
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const frame = (url: string) => `\n\n<iframe src="${escapeAttr(url.trim())}"></iframe>\n\n`;
/** A gallery stands in the HTML as a word the converter leaves alone, resolved once every attachment is known. */
const galleryMark = (key: string) => `\n\n<p>AFTERGLOWGALLERY${key}END</p>\n\n`;
const GALLERY_MARK = /AFTERGLOWGALLERY([\w-]+)END/g;

/** WordPress's shortcodes that carry content, as HTML the converter understands; unknown ones stay as text. */
export function expandShortcodes(html: string, postId: string): string {
  return html
    .replace(/\[caption([^\]]*)\]([\s\S]*?)\[\/caption\]/gi, (_all, rawAttrs: string, inner: string) => {
      const { named } = shortcodeAttrs(rawAttrs);
      const image = /<a\b[^>]*>\s*<img\b[^>]*>\s*<\/a>|<img\b[^>]*>/i.exec(inner);
      const caption = named.caption ?? (image ? inner.replace(image[0], '') : inner).replace(/<[^>]*>/g, '').trim();
      return image ? `<figure>${image[0]}<figcaption>${caption}</figcaption></figure>` : inner;
    })
    .replace(/\[gallery([^\]]*)\]/gi, (_all, rawAttrs: string) => {
      const ids = (shortcodeAttrs(rawAttrs).named.ids ?? '').split(',').map((id) => id.trim()).filter((id) => /^\d+$/.test(id));
      return galleryMark(ids.length ? ids.join('-') : `P${postId}`);
    })
    .replace(/\[embed[^\]]*\]([\s\S]*?)\[\/embed\]/gi, (_all, url: string) => frame(url))
    .replace(/\[youtube[=\s]([^\]]+)\]/gi, (_all, raw: string) => {
      const target = shortcodeAttrs(raw.trim()).positional[0] ?? '';
      return frame(/^[\w-]{11}$/.test(target) ? `https://www.youtube.com/watch?v=${target}` : target.replace(/&amp;/g, '&'));
    })
    .replace(/\[vimeo[=\s]([^\]]+)\]/gi, (_all, raw: string) => {
      const target = shortcodeAttrs(raw.trim()).positional[0] ?? '';
      return frame(/^\d+$/.test(target) ? `https://vimeo.com/${target}` : target);
    })
    .replace(/\[(audio|video)([^\]]*)\](?:[\s\S]*?\[\/\1\])?/gi, (all, _kind: string, rawAttrs: string) => {
      const { named } = shortcodeAttrs(rawAttrs);
      const src = named.src ?? named.mp3 ?? named.m4a ?? named.ogg ?? named.wav ?? named.mp4 ?? named.webm;
      return src ? frame(src) : all;
    });
}

const BLOCK_START = /^<(?:p|div|h[1-6]|ul|ol|li|table|thead|tbody|tr|td|th|blockquote|figure|figcaption|pre|hr|iframe|dl|dt|dd|section|article|aside|header|footer|address|form|!--)[\s>/-]/i;

/**
 * WordPress keeps a classic post's paragraphs as blank lines and adds `<p>` only when it shows
 * it (wpautop): the same here, so paragraphs and line breaks survive. A link alone on a line is
 * an embed there (oEmbed), so it stays a bare link here.
 */
export function autoParagraphs(html: string): string {
  if (/<!-- wp:|<p[\s>]/i.test(html)) return html;
  const kept: string[] = [];
  // The "read more" and page-break marks are no content here.
  const safe = html.replace(/<!--(?:more|nextpage)\b[^>]*-->/g, '\n\n').replace(/<pre\b[\s\S]*?<\/pre>/gi, (pre) => `\u0000${kept.push(pre) - 1}\u0000`);
  const paragraphs = safe.split(/\n\s*\n/).map((chunk) => chunk.trim()).filter(Boolean).map((chunk) => {
    if (/^https?:\/\/[^\s<>"]+$/.test(chunk)) return frame(chunk);
    if (BLOCK_START.test(chunk) || /^\u0000\d+\u0000$/.test(chunk)) return chunk;
    return `<p>${chunk.replace(/\n/g, '<br />\n')}</p>`;
  });
  return paragraphs.join('\n\n').replace(/\u0000(\d+)\u0000/g, (_all, index: string) => kept[Number(index)]!);
}

/** One site-relative path from an old address, or null. `?p=123` links keep their query. */
function pathOf(link: string): string | null {
  try {
    const url = new URL(link.trim());
    if (url.pathname !== '/' && url.pathname) return url.pathname;
    const p = url.searchParams.get('p');
    return p && /^\d+$/.test(p) ? `/?p=${p}` : null;
  } catch {
    return null;
  }
}

const POST_STATUS: Record<string, ImportPost['status']> = { publish: 'published', draft: 'draft', pending: 'draft', private: 'draft', future: 'draft' };
const NOT_POSTS: Record<string, string> = {
  page: 'a page, not a post',
  revision: 'an earlier revision of a post',
  nav_menu_item: 'a menu item, not a post',
  custom_css: "the theme's custom CSS",
  customize_changeset: "the theme customiser's saved state",
  wp_global_styles: "the theme's global styles",
  wp_navigation: 'a navigation menu, not a post',
  wp_template: 'a theme template, not a post',
  wp_template_part: 'a theme template, not a post',
  wp_block: 'a reusable block, not a post',
  oembed_cache: "WordPress's cache of an embed",
  user_request: 'a privacy request, not a post',
};

interface ReadPost {
  post: ImportPost;
  label: string;
  thumbnail: string | undefined;
  base: string | null;
}

/**
 * The WordPress export as a bundle; throws ArchiveRefused for a hostile or unreadable file. With
 * `options.onPosts` and `options.onRewrite`, its posts are handed on in chunks as they are read
 * (docs/decisions/095): one with a gallery or a featured image carries its mark until the file
 * is read, then is rewritten where it was staged, in one pass.
 */
export async function readWordpress(input: ArchiveEntries | Buffer | AsyncIterable<Uint8Array>, options: ReadOptions = {}): Promise<ImportBundle> {
  const skipped: ImportBundle['skipped'] = [];
  const attachments = new Map<string, { url: string; parent: string }>();
  const skippedKinds = new Map<string, number>();
  /** Each old path → the post that has it (the first in the export to claim it). */
  const takenPaths = new Map<string, string>();
  // Featured images and galleries name attachments that may come later in the file: resolved at the end.
  const posts: ReadPost[] = [];
  /** The posts handed on that wait for their attachments, by their index in the order handed on: no text. */
  const marked = new Map<number, Omit<ReadPost, 'post'>>();
  let handed = 0;
  const chunked = options.onPosts && options.onRewrite ? { onPosts: options.onPosts, onRewrite: options.onRewrite, size: options.chunk ?? POST_CHUNK } : null;
  const creators = new Set<string>();

  const onItem = (item: RawItem, siteUrl: string | null) => {
    const base = siteUrl ? siteUrl.replace(/\/?$/, '/') : null;
    const label = `${item.postType || 'item'} ${item.postId} “${item.title.trim() || '(untitled)'}”`;
    if (item.postType === 'attachment') {
      if (item.postId && item.attachmentUrl.trim()) attachments.set(item.postId, { url: new URL(item.attachmentUrl.trim(), base ?? undefined).href, parent: item.postParent.trim() });
      return;
    }
    if (item.postType !== 'post') {
      if (item.postType === 'page') skipped.push({ item: label, reason: NOT_POSTS.page! });
      else skippedKinds.set(item.postType || 'unknown', (skippedKinds.get(item.postType || 'unknown') ?? 0) + 1);
      return;
    }
    const status = POST_STATUS[item.status];
    if (!status) {
      skipped.push({ item: label, reason: item.status === 'trash' ? 'in the trash' : `status “${item.status}” is not a post's` });
      return;
    }
    if (!item.postId) {
      skipped.push({ item: label, reason: 'no post id in the export' });
      return;
    }
    if (item.creator) creators.add(item.creator);

    const oldPaths: string[] = [];
    if (status === 'published') {
      const fromLink = pathOf(item.link);
      if (fromLink) oldPaths.push(fromLink);
      const slugPath = item.postName.trim() ? `/${item.postName.trim()}/` : null;
      if (slugPath && !oldPaths.includes(slugPath)) {
        const first = takenPaths.get(slugPath);
        // Two posts cannot both answer one address: the first keeps the bare slug, and the report
        // says so (a permalink two posts share goes to the writer, which says so as it writes).
        if (first === undefined) oldPaths.push(slugPath);
        else skipped.push({ item: `${label}: old path ${slugPath}`, reason: `${first} has that path first` });
      }
      for (const path of oldPaths) if (!takenPaths.has(path)) takenPaths.set(path, label);
    }

    const comments: ImportComment[] = [];
    for (const raw of item.comments) {
      const approved = raw.approved.trim();
      if (approved === 'spam' || approved === 'trash') {
        skipped.push({ item: `${label}: comment ${raw.id}`, reason: approved === 'spam' ? 'marked as spam' : 'in the trash' });
        continue;
      }
      if (raw.type === 'pingback' || raw.type === 'trackback') {
        skipped.push({ item: `${label}: comment ${raw.id}`, reason: `a ${raw.type}, not a comment` });
        continue;
      }
      const createdAt = wpDate(raw.dateGmt, raw.date.trim() ? `${raw.date.trim().replace(' ', 'T')}Z` : '');
      if (!raw.id.trim() || !createdAt) {
        skipped.push({ item: `${label}: comment ${raw.id}`, reason: 'no id or date in the export' });
        continue;
      }
      const parent = raw.parent.trim();
      comments.push({
        sourceId: raw.id.trim(),
        parentSourceId: parent && parent !== '0' ? parent : null,
        authorName: raw.author.trim() || 'Anonymous',
        // Only a web address: the export is outside input and the name may be shown as a link.
        authorUrl: /^https?:/i.test(raw.url.trim()) ? resolveUrl(raw.url, null) : null,
        text: htmlToText(raw.content),
        createdAt,
        approved: approved === '1',
      });
    }
    // A reply whose parent was left out (spam, trash) hangs from the post instead.
    const kept = new Set(comments.map((c) => c.sourceId));
    for (const c of comments) if (c.parentSourceId && !kept.has(c.parentSourceId)) c.parentSourceId = null;

    posts.push({
      label,
      base,
      thumbnail: item.meta.get('_thumbnail_id')?.trim() || undefined,
      post: {
        sourceId: item.postId,
        authorSourceId: item.creator || null,
        // A title may hold entities or a little HTML (`&#8217;`, `<em>`): the plain words.
        title: htmlToText(item.title).replace(/\s+/g, ' '),
        markdown: htmlToMarkdown(expandShortcodes(autoParagraphs(item.content), item.postId), base),
        summary: htmlToText(item.excerpt) || null,
        status,
        visibility: 'public',
        publishedAt: status === 'published' ? wpDate(item.postDateGmt, item.pubDate) : wpDate(item.postDateGmt),
        updatedAt: wpDate(item.modifiedGmt),
        categories: item.categories,
        tags: item.tags,
        cover: null,
        images: [],
        oldPaths,
        comments,
      },
    });
  };

  const resolve = ({ post, label, thumbnail, base }: ReadPost) => {
    post.markdown = post.markdown.replace(GALLERY_MARK, (_all, key: string) => {
      const ids = key.startsWith('P') ? [...attachments].filter(([, a]) => a.parent === key.slice(1)).map(([id]) => id) : key.split('-');
      const urls = ids.map((id) => attachments.get(id)?.url).filter((url): url is string => Boolean(url));
      if (urls.length < ids.length) skipped.push({ item: `${label}: gallery`, reason: `${ids.length - urls.length} of its ${ids.length} images are not in the export` });
      return urls.map((url) => htmlToMarkdown(`<img src="${escapeAttr(url)}" alt="">`, base)).join('\n\n');
    });
    post.images = markdownImageUrls(post.markdown).filter((url) => /^https?:/.test(url)).map((url) => ({ ref: { kind: 'url', url }, inMarkdown: url }));
    if (thumbnail) {
      const attachment = attachments.get(thumbnail);
      if (attachment) post.cover = { kind: 'url', url: attachment.url };
      else skipped.push({ item: `${label}: featured image`, reason: `attachment ${thumbnail} is not in the export` });
    }
    return post;
  };
  const handOn = async () => {
    if (!chunked || posts.length < chunked.size) return;
    const chunk = posts.splice(0);
    for (const { post, ...rest } of chunk) {
      // A post that names no attachment is whole now (resolving it says nothing in the report).
      if (rest.thumbnail || post.markdown.search(GALLERY_MARK) !== -1) marked.set(handed, rest);
      else resolve({ post, ...rest });
      handed++;
    }
    await chunked.onPosts(chunk.map(({ post }) => post));
  };

  const { siteUrl, siteTitle, authors } = await collect(input, onItem, handOn);
  for (const creator of creators) if (!authors.has(creator)) authors.set(creator, { sourceId: creator, name: creator, email: null, bio: null, avatar: null });

  // In the file's order, as the whole bundle's: the posts handed on, then the rest.
  if (chunked && marked.size) await chunked.onRewrite([...marked.keys()], (index, post) => resolve({ post, ...marked.get(index)! }));
  for (const entry of posts) resolve(entry);
  for (const [kind, count] of skippedKinds) skipped.push({ item: `${count} ${kind} item${count === 1 ? '' : 's'}`, reason: NOT_POSTS[kind] ?? 'not a post' });
  return { source: 'wordpress', siteUrl, siteTitle, authors: [...authors.values()], posts: posts.map((p) => p.post), subscribers: [], skipped };
}
