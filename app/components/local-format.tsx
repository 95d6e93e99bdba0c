import { useEffect, useState } from 'react';

/**
 * Dates and numbers in the viewer's own locale (spec §2 "local format"; issue 9). The server
 * cannot know the locale, so the first render shows a stable form (the ISO day, plain digits)
 * that hydrates without a mismatch, and the browser then reformats it.
 */
const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** The site's one date format (issue 17): the locale's medium date, with a short time where a time matters. */
export function formatLocalDate(iso: string, withTime = false): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return withTime ? date.toLocaleString(undefined, DATE_TIME) : date.toLocaleDateString(undefined, DATE);
}

export function LocalTime({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setLocal(formatLocalDate(iso, withTime));
  }, [iso, withTime]);
  return <time dateTime={iso}>{local ?? iso.slice(0, 10)}</time>;
}

export function LocalNumber({ value }: { value: number }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => setLocal(value.toLocaleString()), [value]);
  return <>{local ?? String(value)}</>;
}
