/**
 * The home page's achievements (docs/product.md#achievements): the four fixed figures unless the operator sets
 * ACHIEVEMENTS to figures of their own or to `counted`, the site's own counts
 * (docs/decisions/031, 051).
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
  label: (typeof FIGURE_LABELS)[number];
  end: number;
  suffix: '' | '+' | '%';
}

export const FIGURE_LABELS = ['Total Blog', 'Share rate', 'Subscriber', 'Active Blogger'] as const;

/** The product's own figures (docs/product.md#achievements): fixed, not fetched. */
export const SPEC_FIGURES: Figure[] = [
  { label: 'Total Blog', end: 24_000, suffix: '+' },
  { label: 'Share rate', end: 70, suffix: '%' },
  { label: 'Subscriber', end: 8000, suffix: '+' },
  { label: 'Active Blogger', end: 60, suffix: '' },
];

/** What the section shows: fixed figures (the product's by default), or the site's own counts. */
export type AchievementsSetting = { kind: 'fixed'; figures: Figure[] } | { kind: 'counted' };

export const ACHIEVEMENTS_FORMAT = 'must be "counted" or four figures in the order Total Blog, Share rate, Subscriber, Active Blogger, each a whole number with an optional + or %, like 24000+,70%,8000+,60';

/** Reads the ACHIEVEMENTS setting; null when it is not one of the two forms. */
export function parseAchievements(value: string): AchievementsSetting | null {
  const text = value.trim();
  if (text.toLowerCase() === 'counted') return { kind: 'counted' };
  const parts = text.split(',').map((part) => /^(\d{1,9})([+%]?)$/.exec(part.trim()));
  if (parts.length !== FIGURE_LABELS.length || parts.some((m) => !m)) return null;
  return {
    kind: 'fixed',
    figures: parts.map((m, i) => ({ label: FIGURE_LABELS[i]!, end: Number(m![1]), suffix: m![2] as Figure['suffix'] })),
  };
}

/**
 * A count as the product writes its figures ('24000+'): below 100 as it is, above two significant
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
