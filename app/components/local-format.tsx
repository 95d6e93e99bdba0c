import { useEffect, useState } from 'react';

/**
 * Dates and numbers in the viewer's own locale (spec §2 "local format"; issue 9). The server
 * cannot know the locale, so the first render shows a stable form (the ISO day, plain digits)
 * that hydrates without a mismatch, and the browser then reformats it.
 */
export function LocalTime({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return;
    setLocal(withTime ? date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : date.toLocaleDateString());
  }, [iso, withTime]);
  return <time dateTime={iso}>{local ?? iso.slice(0, 10)}</time>;
}

export function LocalNumber({ value }: { value: number }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => setLocal(value.toLocaleString()), [value]);
  return <>{local ?? String(value)}</>;
}
