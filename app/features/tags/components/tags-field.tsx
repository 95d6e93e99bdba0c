import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { MESSAGES } from '~/lib/texts/messages';
import { TAG_MAX_LENGTH, TAGS_PER_POST, tagKey, tidyTag } from '../tag-path';

interface Suggestion {
  name: string;
  key: string;
  posts: number;
}

/** Where the field asks for suggestions (GET /api/tags, server/http/api/tags.api.server.ts). */
const SUGGEST_PATH = '/api/tags';
const SUGGEST_DELAY_MS = 150;

/** The tag being typed: what follows the last comma. */
const typing = (value: string) => tidyTag(value.slice(value.lastIndexOf(',') + 1));

/**
 * A post's tags (docs/decisions/069): one comma-separated text, which is the whole field without
 * JavaScript; with it, the tags already used on the site that begin with what is being typed are
 * offered below as buttons, most used first, and picking one completes the word.
 */
export function TagsField({ defaultValue, error }: { defaultValue?: string | readonly string[]; error?: string }) {
  const [value, setValue] = useState(Array.isArray(defaultValue) ? defaultValue.join(', ') : ((defaultValue as string | undefined) ?? ''));
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);

  const prefix = typing(value);
  useEffect(() => {
    if (!open || !prefix) {
      setSuggestions([]);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      fetch(`${SUGGEST_PATH}?${new URLSearchParams({ prefix })}`, { signal: abort.signal })
        .then((res) => (res.ok ? (res.json() as Promise<Suggestion[]>) : []))
        .then((found) => {
          const chosen = new Set(value.split(',').slice(0, -1).map((tag) => tagKey(tidyTag(tag))));
          setSuggestions(found.filter((tag) => !chosen.has(tag.key) && tag.key !== tagKey(prefix)));
        })
        .catch(() => undefined);
    }, SUGGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [prefix, open, value]);

  function pick(name: string) {
    const before = value.slice(0, value.lastIndexOf(',') + 1);
    setValue(`${before ? `${before.trimEnd()} ` : ''}${name}, `);
    setSuggestions([]);
    input.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && suggestions.length > 0) {
      event.preventDefault();
      setSuggestions([]);
    }
  }

  const describedBy = ['tags-hint', error ? 'tags-error' : null].filter(Boolean).join(' ');
  return (
    <div className="md:col-span-2">
      <label htmlFor="tags" className="mb-1 block font-semibold">{MESSAGES.tagsLabel}</label>
      <input
        ref={input}
        id="tags"
        name="tags"
        type="text"
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        autoComplete="off"
        maxLength={TAGS_PER_POST * (TAG_MAX_LENGTH + 2)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="input w-full"
        data-testid="tags-input"
      />
      {suggestions.length > 0 ? (
        <div role="group" aria-label={MESSAGES.tagSuggestionsLabel} className="mt-2 flex flex-wrap gap-2" data-testid="tag-suggestions">
          {suggestions.map((tag) => (
            <button key={tag.key} type="button" className="btn btn-xs btn-outline" aria-label={MESSAGES.tagAdd(tag.name)} onClick={() => pick(tag.name)}>
              #{tag.name} <span className="opacity-70">{tag.posts}</span>
            </button>
          ))}
        </div>
      ) : null}
      <p id="tags-hint" className="mt-1 text-sm opacity-75">{MESSAGES.tagsHint(TAGS_PER_POST)}</p>
      {error ? (
        <p id="tags-error" className="mt-1 text-sm text-error" data-testid="tags-error">{error}</p>
      ) : null}
    </div>
  );
}
