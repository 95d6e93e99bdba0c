import { describe, expect, it } from 'vitest';
import { altFromFileName, applyReplacement, imageMarkdown, insertBlock, type MarkdownAction, markdownEdit, picturesIn, picturesWithoutAlt, setAlt, uploadingMarker } from './markdown-edit';

/** `|` marks the caret, `[` … `]` the selection, in the examples below. */
function parse(marked: string) {
  const caret = marked.indexOf('|');
  if (caret !== -1) return { value: marked.replace('|', ''), start: caret, end: caret };
  const start = marked.indexOf('«');
  const end = marked.indexOf('»') - 1;
  return { value: marked.replace('«', '').replace('»', ''), start, end };
}

function show({ value, start, end }: { value: string; start: number; end: number }) {
  return start === end ? `${value.slice(0, start)}|${value.slice(start)}` : `${value.slice(0, start)}«${value.slice(start, end)}»${value.slice(end)}`;
}

const edit = (action: MarkdownAction, marked: string) => {
  const selection = parse(marked);
  return show(applyReplacement(selection.value, markdownEdit(action, selection)));
};

/** [what the case shows, action, before, after]. */
const EDITS: [string, MarkdownAction, string, string][] = [
  ['wraps the selection in bold', 'bold', 'a «word» here', 'a **«word»** here'],
  ['unwraps bold around the selection', 'bold', 'a **«word»** here', 'a «word» here'],
  ['unwraps bold inside the selection', 'bold', 'a «**word**» here', 'a «word» here'],
  ['wraps in italic', 'italic', 'a «word»', 'a _«word»_'],
  ['wraps part of a line in code', 'code', 'run «npm test» now', 'run `«npm test»` now'],
  ['puts selected placeholder words where nothing was selected (bold)', 'bold', 'a |', 'a **«bold text»**'],
  ['puts selected placeholder words where nothing was selected (italic)', 'italic', '|', '_«italic text»_'],
  ['puts selected placeholder words where nothing was selected (link)', 'link', 'see |', 'see [«link text»](https://)'],
  ['links the selected words and selects the address to type', 'link', 'read «the castle» story', 'read [the castle](«https://») story'],
  ['uses a selected address as the link’s target', 'link', 'at «https://example.com/x»', 'at [«link text»](https://example.com/x)'],
  ['makes the caret’s line a heading, the caret staying in its words', 'heading', 'x\nmid|dle\ny', 'x\n## mid|dle\ny'],
  ['quotes every selected line', 'quote', 'one\n«two\nthree»\nfour', 'one\n«> two\n> three»\nfour'],
  ['lists every selected line', 'list', '«a\nb»', '«- a\n- b»'],
  ['takes the list marks off again', 'list', '«- a\n- b»', '«a\nb»'],
  ['fences whole lines of code', 'code', 'text\n«a = 1\nb = 2»', 'text\n```\n«a = 1\nb = 2»\n```\n'],
];

describe('the toolbar’s Markdown edits', () => {
  it.each(EDITS)('%s', (_case, action, before, after) => {
    expect(edit(action, before)).toBe(after);
  });
});

describe('images in the body', () => {
  it('writes the Markdown with the shown size in the fragment and an alt without brackets', () => {
    expect(imageMarkdown('tiled [wall]', '/uploads/x-1600.webp', { width: 1600, height: 1067 })).toBe('![tiled  wall](/uploads/x-1600.webp#1600x1067)');
    expect(imageMarkdown('a', '/uploads/x-1600.webp')).toBe('![a](/uploads/x-1600.webp)');
  });

  it('inserts a block on lines of its own at the caret', () => {
    const at = (marked: string) => {
      const s = parse(marked);
      return show(applyReplacement(s.value, insertBlock(s, 'IMG')));
    };
    expect(at('|')).toBe('IMG|');
    expect(at('one|')).toBe('one\n\nIMG|');
    expect(at('one\n|two')).toBe('one\n\nIMG|\n\ntwo');
    expect(at('one\n\n|\n\ntwo')).toBe('one\n\nIMG|\n\ntwo');
    expect(at('one «word» two')).toBe('one \n\nIMG|\n\n two');
  });

  it('suggests an alt text from the file’s name and marks an upload in progress', () => {
    expect(altFromFileName('tiled-wall_2.JPG')).toBe('tiled wall 2');
    expect(uploadingMarker('a]b.png', 3)).toBe('![Uploading a b.png (3)…]()');
  });
});

describe('alt text for pictures (docs/decisions/063)', () => {
  const text = 'Intro\n\n![](/uploads/a-1600.webp#1600x1067)\n\n![A wall](/uploads/b-1600.webp "caption")\n\n![  ](https://example.org/c.png)\n\n![Uploading x.png (1)…]()';

  it('finds every picture with its alt text and address, leaving upload markers out', () => {
    expect(picturesIn(text).map((p) => [p.alt, p.url])).toEqual([
      ['', '/uploads/a-1600.webp#1600x1067'],
      ['A wall', '/uploads/b-1600.webp'],
      ['  ', 'https://example.org/c.png'],
    ]);
  });

  it('lists the pictures with no alt text', () => {
    expect(picturesWithoutAlt(text).map((p) => p.url)).toEqual(['/uploads/a-1600.webp#1600x1067', 'https://example.org/c.png']);
  });

  it('sets a picture’s alt text in place, without brackets, and leaves the caption', () => {
    const wall = setAlt(text, '/uploads/b-1600.webp', 'A wall', 'The [tiled] wall\nat dusk')!;
    expect(applyReplacement(text, wall).value).toContain('![The  tiled  wall at dusk](/uploads/b-1600.webp "caption")');
    const first = setAlt(text, '/uploads/a-1600.webp#1600x1067', '', 'Harbour')!;
    expect(applyReplacement(text, first).value).toContain('\n\n![Harbour](/uploads/a-1600.webp#1600x1067)\n\n');
    expect(setAlt(text, '/uploads/gone.webp', '', 'x')).toBeNull();
  });
});
