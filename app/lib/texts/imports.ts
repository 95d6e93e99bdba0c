/** The platforms by their own names. */
const SOURCE_NAMES: Record<string, string> = { ghost: 'Ghost', wordpress: 'WordPress', substack: 'Substack', medium: 'Medium', markdown: 'Markdown', afterglow: 'Afterglow' };

/** A source's name as its platform writes it (`substack` → Substack). */
export const importSourceName = (source: string) => SOURCE_NAMES[source] ?? source;

/** The import screen's words (docs/product.md#importing-from-another-platform). */
export const IMPORT_TEXTS = {
  title: 'Import posts',
  intro: 'Bring your posts from Ghost (its JSON export, alone or zipped with its images and its members CSV), WordPress (its .xml export), Substack or Medium (their export zips), a Jekyll or Hugo site (a zip), or another Afterglow site. Pictures, comments, old links and subscribers come along. Ghost’s members CSV and Substack’s subscriber list (email_list….csv) can come alone too.',
  archiveLabel: 'Archive',
  archiveHint: (mb: number) => `A .zip, .json, .xml or .csv file of at most ${mb} MB. Larger archives can be imported by the site's operator.`,
  upload: 'Read the archive',
  progressLabel: 'Import progress',
  progress: (done: number, total: number, percent: number) => `${done} of ${total} items (${percent}%)`,
  found: (source: string, posts: number, subscribers: number) =>
    `Found ${posts} ${posts === 1 ? 'post' : 'posts'}${subscribers ? ` and ${subscribers} ${subscribers === 1 ? 'subscriber' : 'subscribers'}` : ''} in this ${importSourceName(source)} archive. Nothing is written until you import.`,
  /** The review of a subscriber list alone (Ghost's members CSV, Substack's list): no posts, so no categories (docs/decisions/095). */
  foundList: (source: string, subscribers: number) => `This ${importSourceName(source)} list has ${subscribers} ${subscribers === 1 ? 'subscriber' : 'subscribers'}. Nothing is written until you import.`,
  reviewList: 'Check who comes, then import.',
  /** The review's line on subscribers (docs/decisions/090): how many come, how many stay out. */
  subscribersFound: (coming: number, out: number) =>
    (coming === 0
      ? 'No subscriber comes.'
      : coming === 1
        ? '1 subscriber comes as pending: a mail asks them to confirm, and posts go to them only after they do.'
        : `${coming} subscribers come as pending: each gets a mail to confirm, and posts only after confirming.`) +
    (out ? ` ${out} ${out === 1 ? 'stays' : 'stay'} out: unsubscribed, bounced or deleted at the source.` : ''),
  mappingLegend: 'Which of our categories each of yours becomes',
  /** A source without categories (Substack, Medium): one choice for every post. */
  noCategories: (source: string, category: string) => `${importSourceName(source)} exports have no categories: every post becomes ${category}. You can choose another for all of them.`,
  noCategoriesLabel: 'Category of every post',
  /** The line for the posts without a category among those with one. */
  noCategoryLine: 'Posts without a category',
  reportSubscribers: (s: { pending: number; confirmed: number; existing: number; skipped: number }) =>
    `Subscribers: ${[
      s.pending ? `${s.pending} pending, ${s.pending === 1 ? 'sent' : 'each sent'} a mail to confirm` : '',
      s.confirmed ? `${s.confirmed} confirmed, their consent stated by the operator` : '',
      s.existing ? `${s.existing} subscribed here already` : '',
      s.skipped ? `${s.skipped} left out, listed below` : '',
    ].filter(Boolean).join('; ')}.`,
  confirm: 'Import',
  /** Under the review's button: how long a run waits for it (docs/decisions/095). */
  keepHint: (days: number) => `An import not started within ${days} days is cleared away, with its archive.`,
  /** A run ended by the sweep: left in review, or stopped and never carried on. */
  expired: (days: number) => `This import waited ${days} days without being started, so it was cleared away with its archive. Upload the archive again to import it.`,
  stopped: (days: number) =>
    `This import stopped and did not carry on for ${days} days, so it was cleared away with its archive. What it wrote stays; upload the archive again to bring the rest (nothing comes twice).`,
  skippedSummary: (n: number) => `${n} ${n === 1 ? 'thing' : 'things'} did not come, and why`,
  reportLine: (r: { posts: { imported: number; unchanged: number; skipped: number }; comments: { imported: number }; images: { stored: number; reused: number }; legacyPaths: number }) =>
    `${r.posts.imported} posts imported (${r.posts.unchanged} were here already, ${r.posts.skipped} skipped), ${r.comments.imported} comments, ${r.images.stored + r.images.reused} pictures, ${r.legacyPaths} old links redirected.`,
  status: {
    scanning: 'Reading the archive…',
    review: 'Check how your categories map onto ours, then import.',
    queued: 'Waiting to start…',
    running: 'Importing…',
    done: 'Done.',
    failed: 'The import could not be done.',
  },
} as const;

/** The admins' "Import a site" screen's words (docs/decisions/083). */
export const SITE_IMPORT_TEXTS = {
  title: 'Import a site',
  link: 'Import a site',
  intro: 'Move a whole site here from its export. Each author’s posts go to an account you choose: one already here, a new one, or none.',
  archiveHint: (mb: number) => `A .zip, .json, .xml or .csv file of at most ${mb} MB. Larger archives go through the command line (npm run import).`,
  authorsLegend: 'Whose account each author’s posts go to',
  author: (name: string, email: string | null, posts: number) => `${name}${email ? ` (${email})` : ''}, ${posts} ${posts === 1 ? 'post' : 'posts'}`,
  choiceLabel: 'Posts go to',
  choices: { account: 'An account already here', new: 'A new account', skip: 'Nobody: leave them out' },
  emailLabel: 'Email of the account',
  newHint: 'A new account has no password. Its owner gets a mail with a link to set one. Authors mapped to an account already here get no mail.',
  noEmail: 'No email in the archive: a new account cannot be made.',
  reportAuthors: 'Authors',
  outcome: (a: { name: string; posts: number; outcome: 'new' | 'existing' | 'skipped'; account: string | null }) =>
    a.outcome === 'skipped' ? `${a.name}: ${a.posts} ${a.posts === 1 ? 'post' : 'posts'} left out` : `${a.name}: ${a.posts} ${a.posts === 1 ? 'post' : 'posts'} to ${a.outcome === 'new' ? 'the new account' : 'the account'} ${a.account ?? ''}`.trim(),
  status: { ...IMPORT_TEXTS.status, review: 'Check whose account each author’s posts go to and how the categories map, then import.' },
} as const;
