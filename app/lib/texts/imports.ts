/** The import screen's words (docs/product.md#importing-from-another-platform). */
export const IMPORT_TEXTS = {
  title: 'Import posts',
  intro: 'Bring your posts from Ghost (its JSON export, alone or zipped with its images), WordPress (its .xml export), Substack or Medium (their export zips), a Jekyll or Hugo site (a zip), or another Afterglow site. Pictures, comments and old links come along.',
  archiveLabel: 'Archive',
  archiveHint: (mb: number) => `A .zip, .json or .xml file of at most ${mb} MB. Larger archives can be imported by the site's operator.`,
  upload: 'Read the archive',
  progressLabel: 'Import progress',
  progress: (done: number, total: number, percent: number) => `${done} of ${total} items (${percent}%)`,
  found: (source: string, posts: number, subscribers: number) => `Found ${posts} posts${subscribers ? ` and ${subscribers} subscribers` : ''} in this ${source} archive. Nothing is written until you import.`,
  mappingLegend: 'Which of our categories each of yours becomes',
  confirm: 'Import',
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
