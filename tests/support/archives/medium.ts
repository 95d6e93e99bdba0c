/**
 * Medium exports as Settings → Download your information writes them: `posts/` holds one h-entry
 * file per story (`YYYY-MM-DD_Title-Slug-<12 hex>.html`, drafts as `draft_…`), responses among
 * them, beside the other folders (profile, claps, bookmarks…). Bodies use Medium's "graf" markup:
 * a title graf repeating the title, figures at cdn-images, code as <pre> with <br>, embeds as
 * iframes. `knownMedium` holds stories a test checks field by field; `bulkMedium` hundreds more.
 */
import type { ArchiveFiles } from './entries.ts';

export const MEDIUM_USER = '@ada';
export const cdnMedium = (id: string) => `https://cdn-images-1.medium.com/max/800/${id}`;

export interface MediumStory {
  id: string; // 12 hex
  slug: string;
  title: string;
  subtitle?: string;
  date?: string; // ISO; absent for drafts
  draft?: boolean;
  /** The body inside the section, after the title graf (omitted for responses). */
  grafs: string;
  titleGraf?: boolean;
  /** Raw file contents instead of the generated page. */
  raw?: string;
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const figure = (imageId: string, caption?: string, featured = false) =>
  `<figure name="f${imageId.slice(2, 6)}" class="graf graf--figure graf-after--h3"><img class="graf-image" data-image-id="${imageId}" data-width="1600" data-height="1067"${featured ? ' data-is-featured="true"' : ''} src="${cdnMedium(imageId)}">${caption ? `<figcaption class="imageCaption">${caption}</figcaption>` : ''}</figure>`;

function page(story: MediumStory): string {
  const canonical = `https://medium.com/${MEDIUM_USER}/${story.slug}-${story.id}`;
  const titleGraf = story.titleGraf === false ? '' : `<h3 name="t${story.id.slice(0, 3)}" class="graf graf--h3 graf--leading graf--title">${esc(story.title)}</h3>`;
  const footer = story.draft
    ? `<footer><p><a href="https://medium.com/p/${story.id}">View original.</a></p><p>Exported from <a href="https://medium.com">Medium</a> on November 20, 2026.</p></footer>`
    : `<footer><p>By <a href="https://medium.com/${MEDIUM_USER}" class="p-author h-card">Ada Lovelace</a> on <a href="https://medium.com/p/${story.id}"><time class="dt-published" datetime="${story.date}">${story.date?.slice(0, 10)}</time></a>.</p><p><a href="${canonical}" class="p-canonical">Canonical link</a></p><p>Exported from <a href="https://medium.com">Medium</a> on November 20, 2026.</p></footer>`;
  return `<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><title>${esc(story.title)}</title><style>
      * { font-family: Georgia, Cambria, "Times New Roman", Times, serif; }
      html, body { margin: 0; padding: 0; }
    </style></head><body><article class="h-entry">
<header>
<h1 class="p-name">${esc(story.title)}</h1>
</header>
<section data-field="subtitle" class="p-summary">
${esc(story.subtitle ?? '')}
</section>
<section data-field="body" class="e-content">
<section name="s${story.id.slice(0, 3)}" class="section section--body section--first section--last"><div class="section-divider"><hr class="section-divider"></div><div class="section-content"><div class="section-inner sectionLayout--insetColumn">${titleGraf}${story.grafs}</div></div></section>
</section>
${footer}
</article></body></html>`;
}

export const fileName = (story: MediumStory) => (story.draft ? `draft_${story.slug}-${story.id}.html` : `${story.date!.slice(0, 10)}_${story.slug}-${story.id}.html`);

export function knownMediumStories(): MediumStory[] {
  return [
    {
      id: '1a2b3c4d5e6f',
      slug: 'three-days-in-rome',
      title: 'Three days in Rome',
      subtitle: 'Walking everywhere',
      date: '2019-03-04T10:00:00.123Z',
      grafs: [
        '<h4 class="graf graf--h4 graf-after--h3 graf--subtitle">Walking everywhere</h4>',
        figure('1*cover.jpeg', undefined, true),
        '<p class="graf graf--p">We landed at <em class="markup--em markup--p-em">dawn</em>; <a href="https://example.org/rome" class="markup--anchor markup--p-anchor">a guide</a>.</p>',
        figure('1*forum.png', 'The forum'),
        '<pre class="graf graf--pre" data-code-block-lang="python">print("ciao")<br>print("roma")</pre>',
        '<figure class="graf graf--iframe"><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" width="700" height="393" frameborder="0" scrolling="no"></iframe></figure>',
        '<blockquote class="graf graf--blockquote">All roads.</blockquote>',
      ].join(''),
    },
    { id: 'abcdef012345', slug: 'an-unfinished-draft', title: 'An unfinished draft', draft: true, grafs: '<p class="graf graf--p">Not yet.</p>' },
    {
      id: '0f0f0f0f0f0f',
      slug: 'i-agree-with-this',
      title: 'I agree with this completely, and…',
      date: '2020-01-02T03:04:05.000Z',
      titleGraf: false,
      grafs: '<p class="graf graf--p graf--leading">I agree with this completely, and would add that Rome is best in spring.</p>',
    },
  ];
}

const RTL = 'سلام دنیا، این یک نوشته فارسی است.';
const EMOJI = 'Night train 🚆✨';

export function bulkMediumStories(count: number): MediumStory[] {
  const stories: MediumStory[] = [];
  for (let n = 0; n < count; n++) {
    const id = (0x100000000000 + n).toString(16);
    const odd = n % 6;
    const title = odd === 1 ? `${EMOJI} ${n}` : odd === 2 ? `${RTL} ${n}` : `Story ${n}`;
    const date = new Date(Date.UTC(2016, 0, 1) + n * 86_400_000).toISOString();
    if (odd === 5) {
      // A response: no title graf, named by its opening words.
      stories.push({ id, slug: `reply-${n}`, title: `Great point number ${n}`, date, titleGraf: false, grafs: `<p class="graf graf--p graf--leading">Great point number ${n}, thanks.</p>` });
      continue;
    }
    const grafs =
      odd === 3
        ? `<p class="graf graf--p">Broken <strong>markup <em>never closed<figure class="graf graf--figure"><img class="graf-image" src="${cdnMedium(`0*missing-${n}`)}"></figure>`
        : `${n % 4 === 0 ? figure(`1*bulk-${n}.jpeg`, `Picture ${n}`) : ''}<p class="graf graf--p">${odd === 2 ? RTL : `Paragraph of story ${n}`} ${EMOJI}</p>`;
    stories.push({ id, slug: n % 30 === 4 ? 'same-title' : `story-${n}`, title, date, draft: n % 20 === 19, grafs });
  }
  return stories;
}

/** The export's folders: posts/ with every story, and the other folders a Medium export holds. */
export function mediumArchive(stories: MediumStory[], folder = 'medium-export/'): ArchiveFiles {
  const files: ArchiveFiles = new Map();
  files.set(`${folder}README.html`, '<html><body>Your Medium data</body></html>');
  files.set(`${folder}profile/profile.html`, '<html><body><h3 class="p-name">Ada Lovelace</h3></body></html>');
  files.set(`${folder}claps/claps-0001.html`, '<html><body><ul><li>a clap</li></ul></body></html>');
  files.set(`${folder}bookmarks/bookmarks-0001.html`, '<html><body></body></html>');
  for (const story of stories) files.set(`${folder}posts/${fileName(story)}`, story.raw ?? page(story));
  return files;
}
