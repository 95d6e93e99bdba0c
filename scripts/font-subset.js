// Literata, cut down to what the pages draw (docs/decisions/042). Fontsource ships the whole
// weight axis (200–900) of its Latin subset: 52 KB upright, 53 KB italic. Our serif text is set at
// 400 (text), 600 (small headings in a blog's body) and 700 (titles, bold): with the axis
// limited to 400–700 and only the OpenType features the pages use, each file is about 34 KB, the
// same characters (the unicode-range in app/app.css is unchanged). Made with harfbuzz's subsetter
// (`subset-font`), once per source font and options: the files are kept in node_modules/.cache
// and rebuilt only when the source font or these options change. The Vite plugin below makes
// them before any CSS is read, for `npm run build` and for the dev server alike.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE_DIR = path.join(root, 'node_modules/@fontsource-variable/literata/files');
export const FONT_CACHE_DIR = path.join(root, 'node_modules/.cache/afterglow-fonts');

/** The weight axis kept: app.css's @font-face declares the same range. */
export const WEIGHTS = { min: 400, max: 700 };
/**
 * OpenType features kept: composition, ligatures, local forms, kerning, mark placement, and
 * tabular figures (`tabular-nums` on Featured blogs' serif numbers). Dropped: fractions,
 * numerators, denominators and proportional figures, which no page asks for.
 */
export const FEATURES = ['ccmp', 'liga', 'locl', 'rvrn', 'tnum', 'kern', 'mark'];
/** Fontsource's Latin subset, as app.css's unicode-range names it. */
export const UNICODE_RANGES = [
  [0x0000, 0x00ff], [0x0131], [0x0152, 0x0153], [0x02bb, 0x02bc], [0x02c6], [0x02da], [0x02dc], [0x0304], [0x0308], [0x0329],
  [0x2000, 0x206f], [0x20ac], [0x2122], [0x2191], [0x2193], [0x2212], [0x2215], [0xfeff], [0xfffd],
];
const STYLES = ['normal', 'italic'];

const text = () => {
  let chars = '';
  for (const [from, to = from] of UNICODE_RANGES) for (let code = from; code <= to; code++) chars += String.fromCodePoint(code);
  return chars;
};

/** Makes (or finds) node_modules/.cache/afterglow-fonts/literata-{normal,italic}.woff2. */
export async function subsetLiterata() {
  mkdirSync(FONT_CACHE_DIR, { recursive: true });
  let subsetFont;
  for (const style of STYLES) {
    const source = readFileSync(path.join(SOURCE_DIR, `literata-latin-wght-${style}.woff2`));
    const key = createHash('sha256').update(source).update(JSON.stringify({ WEIGHTS, FEATURES, UNICODE_RANGES })).digest('hex');
    const target = path.join(FONT_CACHE_DIR, `literata-${style}.woff2`);
    const stamp = `${target}.key`;
    if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8') === key) continue;
    subsetFont ??= (await import('subset-font')).default;
    const subset = await subsetFont(source, text(), { targetFormat: 'woff2', variationAxes: { wght: WEIGHTS }, keepFeatures: FEATURES });
    // Written beside and renamed, so a build running at the same time never reads half a file.
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, subset);
    renameSync(partial, target);
    writeFileSync(stamp, key);
  }
}

let made;
/** Vite plugin: the subset files exist before the stylesheet that names them is processed. */
export function literataSubset() {
  return {
    name: 'afterglow:literata-subset',
    async buildStart() {
      made ??= subsetLiterata();
      await made;
    },
  };
}
