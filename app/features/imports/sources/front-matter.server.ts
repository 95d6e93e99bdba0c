import matter from 'gray-matter';
import { parse as parseToml } from 'smol-toml';
import { type ArchiveEntries, ArchiveRefused, type ImportBundle } from '../import-model';

/**
 * A Markdown file's front matter and body: YAML between `---` lines, TOML between `+++` lines,
 * or a JSON object at the very top (Hugo's three forms). The body is returned exactly as it
 * follows the closing line, so nothing of it changes on the way.
 */
export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
}

/** gray-matter keeps a cache of every text it parsed unless it is given options: always give some. */
const YAML_OPTIONS = { language: 'yaml', delimiters: '---' } as const;

function closing(text: string, fence: string): { head: string; body: string } | null {
  const start = text.indexOf('\n') + 1;
  const end = text.indexOf(`\n${fence}`, start - 1);
  if (end < 0) return null;
  const after = text.indexOf('\n', end + 1 + fence.length);
  return { head: text.slice(start, end + 1), body: after < 0 ? '' : text.slice(after + 1) };
}

/** The length of a leading JSON object, by brace counting outside strings; -1 when it never closes. */
function jsonObjectEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

export function parseFrontMatter(raw: string): FrontMatter {
  const text = raw.replace(/^\uFEFF/, '');
  if (/^---\r?\n/.test(text)) {
    const parts = closing(text, '---');
    if (!parts) throw new Error('its YAML front matter never closes');
    const data = matter(`---\n${parts.head}---\n`, YAML_OPTIONS).data as Record<string, unknown>;
    return { data, body: parts.body };
  }
  if (/^\+\+\+\r?\n/.test(text)) {
    const parts = closing(text, '+++');
    if (!parts) throw new Error('its TOML front matter never closes');
    return { data: parseToml(parts.head) as Record<string, unknown>, body: parts.body };
  }
  if (text.startsWith('{')) {
    const end = jsonObjectEnd(text);
    if (end < 0) throw new Error('its JSON front matter never closes');
    const data = JSON.parse(text.slice(0, end)) as Record<string, unknown>;
    return { data, body: text.slice(end).replace(/^\r?\n/, '') };
  }
  return { data: {}, body: text };
}

/**
 * A post file of an archive read into front matter and body; one whose front matter cannot be
 * read is named in `skipped` with why and answers null (a refused archive still throws).
 */
export async function readPostFile(entries: ArchiveEntries, file: string, skipped: ImportBundle['skipped']): Promise<FrontMatter | null> {
  try {
    return parseFrontMatter((await entries.read(file)).toString('utf8'));
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    skipped.push({ item: file, reason: `its front matter could not be read (${(error as Error).message})` });
    return null;
  }
}
