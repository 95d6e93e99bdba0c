/**
 * Ghost bodies stored without `html`: mobiledoc (Ghost 1–4) and lexical (Ghost 5) documents
 * rendered to plain HTML, with the cards people use (image, gallery, markdown, html, code,
 * divider, embed, bookmark, callout, quote); an unknown card keeps whatever text it carries.
 * The HTML then goes through the shared converter like any other source's.
 */

type Node = Record<string, any>;

/** The placeholder of a markdown card's text (letters and digits only, so no converter escapes it). */
export const markdownCardToken = (index: number) => `GHOSTMARKDOWNCARD${index}X`;

/** Puts markdown cards' own text back where their placeholders stand. */
export const restoreMarkdownCards = (markdown: string, blocks: string[]) => markdown.replace(/GHOSTMARKDOWNCARD(\d+)X/g, (_all, index: string) => blocks[Number(index)] ?? '');

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const figure = (src: string, alt: string, caption: string | null) =>
  `<figure><img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`;

/** A card by its name and payload, shared by both formats (lexical nodes carry the same fields). */
function card(name: string, payload: Node, blocks: string[]): string {
  switch (name) {
    case 'image':
      return payload.src ? figure(String(payload.src), String(payload.alt ?? payload.altText ?? ''), payload.caption ? String(payload.caption) : null) : '';
    case 'gallery':
      return (Array.isArray(payload.images) ? payload.images : []).map((image: Node) => figure(String(image.src ?? ''), String(image.alt ?? ''), null)).join('');
    case 'markdown':
    case 'card-markdown':
      // Markdown stays Markdown: a placeholder the converter leaves alone, put back after it.
      blocks.push(String(payload.markdown ?? ''));
      return `<p>${markdownCardToken(blocks.length - 1)}</p>`;
    case 'html':
      return String(payload.html ?? '');
    case 'code':
    case 'codeblock':
      return `<pre><code${payload.language ? ` class="language-${escapeHtml(String(payload.language))}"` : ''}>${escapeHtml(String(payload.code ?? ''))}</code></pre>`;
    case 'hr':
    case 'horizontalrule':
      return '<hr>';
    case 'embed':
      return payload.html ? String(payload.html) : payload.url ? `<p><a href="${escapeHtml(String(payload.url))}">${escapeHtml(String(payload.url))}</a></p>` : '';
    case 'bookmark': {
      const url = String(payload.url ?? '');
      const title = String(payload.metadata?.title ?? payload.title ?? url);
      return url ? `<p><a href="${escapeHtml(url)}">${escapeHtml(title)}</a></p>` : '';
    }
    case 'callout':
      return `<blockquote>${payload.calloutEmoji ? `${escapeHtml(String(payload.calloutEmoji))} ` : ''}${String(payload.calloutText ?? '')}</blockquote>`;
    default: {
      const text = ['text', 'content', 'caption', 'html'].map((key) => payload[key]).find((value) => typeof value === 'string');
      return text ? `<p>${escapeHtml(text)}</p>` : '';
    }
  }
}

/** Mobiledoc 0.3: sections of markers opening and closing markups, cards and atoms by index. */
export function renderMobiledoc(doc: Node, blocks: string[]): string {
  const markups: [string, string[]?][] = doc.markups ?? [];
  const atoms: [string, string, Node][] = doc.atoms ?? [];
  const cards: [string, Node][] = doc.cards ?? [];
  const markers = (list: any[]): string => {
    const open: string[] = [];
    let out = '';
    for (const [type, opened, closed, value] of list) {
      for (const index of opened as number[]) {
        const [tag, attrs = []] = markups[index] ?? ['span'];
        let attributes = '';
        for (let i = 0; i + 1 < attrs.length; i += 2) attributes += ` ${attrs[i]}="${escapeHtml(String(attrs[i + 1]))}"`;
        out += `<${tag}${attributes}>`;
        open.push(tag);
      }
      if (type === 1) {
        const atom = atoms[value as number];
        out += escapeHtml(atom ? String(atom[1] ?? '') : '');
        if (atom?.[0] === 'soft-return') out += '<br>';
      } else out += escapeHtml(String(value ?? ''));
      for (let i = 0; i < (closed as number); i++) out += `</${open.pop()}>`;
    }
    while (open.length) out += `</${open.pop()}>`;
    return out;
  };
  return (doc.sections ?? [])
    .map((section: any[]) => {
      switch (section[0]) {
        case 1:
          return `<${section[1]}>${markers(section[2] ?? [])}</${section[1]}>`;
        case 2:
          return figure(String(section[1] ?? ''), '', null);
        case 3:
          return `<${section[1]}>${(section[2] ?? []).map((item: any[]) => `<li>${markers(item)}</li>`).join('')}</${section[1]}>`;
        case 10: {
          const [name, payload] = cards[section[1]] ?? ['', {}];
          return card(name, payload ?? {}, blocks);
        }
        default:
          return '';
      }
    })
    .join('\n');
}

const FORMAT_TAGS: [number, string][] = [[1, 'strong'], [2, 'em'], [4, 's'], [8, 'u'], [16, 'code']];

function lexicalNode(node: Node, blocks: string[]): string {
  const children = () => (Array.isArray(node.children) ? node.children.map((child: Node) => lexicalNode(child, blocks)).join('') : '');
  switch (node.type) {
    case 'root':
      return children();
    case 'paragraph':
      return `<p>${children()}</p>`;
    case 'heading':
    case 'extended-heading':
      return `<${/^h[1-6]$/.test(node.tag) ? node.tag : 'h2'}>${children()}</${/^h[1-6]$/.test(node.tag) ? node.tag : 'h2'}>`;
    case 'quote':
    case 'extended-quote':
    case 'aside':
      return `<blockquote>${children()}</blockquote>`;
    case 'list':
      return node.listType === 'number' ? `<ol>${children()}</ol>` : `<ul>${children()}</ul>`;
    case 'listitem':
      return `<li>${children()}</li>`;
    case 'link':
    case 'autolink':
      return `<a href="${escapeHtml(String(node.url ?? ''))}">${children()}</a>`;
    case 'linebreak':
      return '<br>';
    case 'text':
    case 'extended-text': {
      let text = escapeHtml(String(node.text ?? ''));
      for (const [bit, tag] of FORMAT_TAGS) if ((Number(node.format ?? 0) & bit) !== 0) text = `<${tag}>${text}</${tag}>`;
      return text;
    }
    default:
      return card(String(node.type ?? ''), node, blocks);
  }
}

/** Lexical: a tree of element, text and decorator (card) nodes under `root`. */
export function renderLexical(doc: Node, blocks: string[]): string {
  return doc.root ? lexicalNode(doc.root, blocks) : '';
}
