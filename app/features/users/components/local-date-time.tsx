import { useEffect, useState } from 'react';
import { formatLocalDate } from '~/components/local-format';

/**
 * A timestamp in the viewer's locale and time zone. The server cannot know either, so the
 * first render shows a stable UTC form and the browser swaps in its own after hydration.
 */
export function formatUtc(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export function useLocalDateTime(iso: string | null): string {
  const [text, setText] = useState(iso ? formatUtc(iso) : '');
  useEffect(() => {
    if (iso) setText(formatLocalDate(iso, true) ?? formatUtc(iso));
  }, [iso]);
  return text;
}
