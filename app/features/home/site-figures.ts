/**
 * The home page's achievements (spec §2) as true figures (issue 17, docs/decisions/031): the
 * spec's four labels and its count-up, with the site's own counts instead of made-up ones.
 */
export interface SiteCounts {
  /** Public blogs. */
  blogs: number;
  /** Writers with at least one Public blog. */
  writers: number;
  /** Accounts. */
  members: number;
  /** Confirmed newsletter subscribers. */
  subscribers: number;
}

export interface Figure {
  label: 'Total Blog' | 'Share rate' | 'Subscriber' | 'Active Blogger';
  end: number;
  suffix: '' | '+' | '%';
}

/**
 * A count as the spec writes its figures ('24000+'): below 100 as it is, above two significant
 * digits with '+' only when digits were dropped, so 63 stays 63, 163 reads 160+ and 24,312 reads
 * 24000+. Never more than is true.
 */
export function roundedDown(count: number): Pick<Figure, 'end' | 'suffix'> {
  if (count < 100) return { end: count, suffix: '' };
  const step = 10 ** (Math.floor(Math.log10(count)) - 1);
  const end = Math.floor(count / step) * step;
  return { end, suffix: end === count ? '' : '+' };
}

/** The four figures; 'Share rate' is the share of members who have shared a Public blog. */
export function siteFigures(counts: SiteCounts): Figure[] {
  const shareRate = counts.members === 0 ? 0 : Math.round((100 * Math.min(counts.writers, counts.members)) / counts.members);
  return [
    { label: 'Total Blog', ...roundedDown(counts.blogs) },
    { label: 'Share rate', end: shareRate, suffix: '%' },
    { label: 'Subscriber', ...roundedDown(counts.subscribers) },
    { label: 'Active Blogger', ...roundedDown(counts.writers) },
  ];
}
