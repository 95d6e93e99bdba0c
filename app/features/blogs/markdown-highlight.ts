/**
 * Code in a body, highlighted once in the render pool (docs/decisions/063): highlight.js's core
 * with the languages writers on a blog mostly show, so a reader's page carries plain markup with
 * classes our stylesheet colours in both themes, and no highlighter of its own. Imports are
 * relative or bare, as the worker loads this file from the sources too (markdown-render.ts).
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, markdown, php, plaintext, python, ruby, rust, scss, shell, sql, swift, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** The names a fence may give (`js`, `html`, `toml`, `sh`…), each language's aliases included. */
export const highlightable = (lang: string): boolean => hljs.getLanguage(lang) !== undefined;

/**
 * The fence's code as highlighted HTML, or '' to leave it plain (no language, or one we do not
 * carry). No guessing of a language: trying every grammar on every unmarked block costs the
 * render pool for little. Input highlight.js cannot parse is still shown, uncoloured where it fails.
 */
export function highlightCode(code: string, lang: string): string {
  if (!lang || !highlightable(lang) || code.length > budget) return '';
  budget -= code.length;
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}

/**
 * How much code one body may have coloured: a post's listings are far shorter, and past it the
 * rest is shown plain. A body of one long string (100,000 characters of it) took seconds to colour
 * and sanitise, near the render's time bound (docs/decisions/063).
 */
export const HIGHLIGHT_BUDGET = 20_000;
let budget = HIGHLIGHT_BUDGET;

/** Called before each body: its code has the whole budget again. */
export function resetHighlightBudget(): void {
  budget = HIGHLIGHT_BUDGET;
}

type Mode = Record<string, unknown>;

/**
 * Every class the highlighter can put on a `<span>` for the languages above, read from their
 * grammars: a scope `title.function` becomes `hljs-title function_`, a language embedded in
 * another (CSS in HTML) `language-css`. The sanitiser keeps these and no other class, so a
 * writer's own `<span class>` can only borrow the code colours.
 */
export function highlightClasses(): string[] {
  const scopes = new Set<string>();
  const seen = new Set<unknown>();
  const addScope = (value: unknown) => {
    if (typeof value === 'string') scopes.add(value);
    else if (value && typeof value === 'object') for (const s of Object.values(value)) if (typeof s === 'string') scopes.add(s);
  };
  const walk = (mode: unknown, language: Mode) => {
    if (!mode || typeof mode !== 'object' || seen.has(mode)) return;
    seen.add(mode);
    const m = mode as Mode;
    for (const key of ['scope', 'className', 'beginScope', 'endScope']) addScope(m[key]);
    if (m.keywords && typeof m.keywords === 'object' && !Array.isArray(m.keywords)) {
      for (const key of Object.keys(m.keywords)) if (!key.startsWith('$')) scopes.add(key);
    } else if (m.keywords) scopes.add('keyword');
    for (const key of ['contains', 'variants']) if (Array.isArray(m[key])) for (const child of m[key]) walk(child === 'self' ? m : child, language);
    walk(m.starts, language);
  };
  const classes = new Set<string>();
  for (const name of Object.keys(LANGUAGES)) {
    const language = hljs.getLanguage(name) as unknown as Mode;
    const aliases = (language.classNameAliases ?? {}) as Record<string, string>;
    walk(language, language);
    for (const alias of Object.values(aliases)) scopes.add(alias);
    for (const key of Object.keys(aliases)) scopes.delete(key);
    classes.add(`language-${name}`);
  }
  for (const scope of scopes) {
    // A keyword kind starting with `_` only weighs in language detection; it is never shown.
    if (!scope || scope.startsWith('_')) continue;
    const [first, ...rest] = scope.split('.');
    classes.add(`hljs-${first}`);
    rest.forEach((piece, i) => classes.add(`${piece}${'_'.repeat(i + 1)}`));
  }
  return [...classes].sort();
}
