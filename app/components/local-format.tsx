import { useEffect, useState } from 'react';

/**
 * Dates and numbers in the viewer's own locale (docs/product.md#recent-blogs, "local format"). The server
 * cannot know the locale, so the first render shows a stable form (the ISO day, plain digits)
 * that hydrates without a mismatch, and the browser then reformats it.
 */
const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/**
 * One formatter per style, made on first use: `toLocaleDateString(undefined, options)` builds a
 * new Intl formatter on every call, which cost a phone about a third of a second for a page of
 * cards (Lighthouse, 4× CPU slowdown).
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let made = formatters.get(key) as T | undefined;
  if (!made) formatters.set(key, (made = make()));
  return made;
}

/** The site's one date format, so every screen reads a date alike: the locale's medium date, with a short time where a time matters. */
export function formatLocalDate(iso: string, withTime = false): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return formatter(withTime ? 'date-time' : 'date', () => new Intl.DateTimeFormat(undefined, withTime ? DATE_TIME : DATE)).format(date);
}

/** A number in the viewer's locale (digit grouping). */
export const formatLocalNumber = (value: number): string => formatter('number', () => new Intl.NumberFormat()).format(value);

export function LocalTime({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(formatLocalDate(iso, withTime));
  }, [iso, withTime]);
  return <time dateTime={iso}>{local ?? iso.slice(0, 10)}</time>;
}

export function LocalNumber({ value }: { value: number }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => setLocal(formatLocalNumber(value)), [value]);
  return <>{local ?? String(value)}</>;
}
