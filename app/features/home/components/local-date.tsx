import { useHydrated } from './use-motion';

/**
 * A date in the viewer's own locale (spec §2 "local date format"). The server cannot know the
 * locale, so it renders the ISO day and the browser reformats it after hydration.
 */
export function LocalDate({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return <time dateTime={iso}>{hydrated ? date.toLocaleDateString() : iso.slice(0, 10)}</time>;
}
