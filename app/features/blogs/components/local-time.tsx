import { useEffect, useState } from 'react';

/**
 * A timestamp in the viewer's locale (spec §2 "local date format"). The server cannot know the
 * locale, so the first render shows the ISO day (stable for hydration) and the browser then
 * reformats it.
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
