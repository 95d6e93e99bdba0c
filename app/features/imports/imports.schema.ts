import { z } from 'zod';
import { BLOG_CATEGORIES } from '~/features/blogs/blogs.constants';

/** What becomes of one source author's posts in a site import: an account (by its email), a new account, or left out. */
export const SiteAuthorChoiceSchema = z.discriminatedUnion('choice', [
  z.object({ choice: z.literal('account'), email: z.email('Enter the email of an existing account.').max(254) }),
  z.object({ choice: z.literal('new') }),
  z.object({ choice: z.literal('skip') }),
], 'Choose what becomes of each author’s posts.');
export type SiteAuthorChoice = z.infer<typeof SiteAuthorChoiceSchema>;

/**
 * The category mapping's key for the posts whose source names no category (Substack and Medium
 * name none at all): one choice for all of them, Personal unless the importer picks another
 * (docs/decisions/090). No source name is empty, so it stands for nothing else.
 */
export const NO_CATEGORY = '';

/**
 * A run that has not moved for this many days is ended by the sweep (docs/decisions/095): left in
 * review (never confirmed), or stopped with its job gone. The review says so.
 */
export const RUN_KEEP_DAYS = 7;

/** A subscriber list alone (docs/decisions/095): its review and report, on the screen and the command line, speak of subscribers only. */
export const isSubscriberList = (run: { scan: { posts: number; subscribers: number } | null }) => run.scan !== null && run.scan.posts === 0 && run.scan.subscribers > 0;

/** The import's choices (docs/decisions/072), from the screens and the command line alike. */
export const ImportOptionsSchema = z.object({
  /** Source category (or tag) name, or NO_CATEGORY, → one of our seven; names left out take the default mapping. */
  categories: z.record(z.string().max(200), z.enum(BLOG_CATEGORIES, 'Choose one of the seven categories.')).default({}),
  /** Source author id → an account's id (a site import); unmapped authors' posts go to the importer. */
  authors: z.record(z.string().max(200), z.string().max(100)).default({}),
  /** An admin's import of a whole site (docs/decisions/083): each source author's posts go to the account chosen for her. */
  site: z.boolean().default(false),
  /** A site import's choices, by source author id; an author left out takes the default (see `unmatchedAuthors`). */
  authorChoices: z.record(z.string().max(200), SiteAuthorChoiceSchema).default({}),
  /** A site import's author with no choice, no earlier mapping and no account of her email: a new account, or her posts left out. */
  unmatchedAuthors: z.enum(['new', 'skip']).default('new'),
  /** The operator stated the subscribers consented: they are confirmed without a confirmation mail (command line only). */
  consented: z.boolean().default(false),
  /** The old site's address, when the archive does not name it (resolves site-relative images and links). */
  siteUrl: z.url({ protocol: /^https?$/, message: 'The old site’s address must be an http(s) address.' }).nullable().default(null),
});
export type ImportOptions = z.infer<typeof ImportOptionsSchema>;

/** The mapping a writer confirms on the import screen: one select per source name. */
export const CategoryMappingFormSchema = z.object({
  runId: z.string().min(1).max(100),
  mapping: z.record(z.string().max(200), z.enum(BLOG_CATEGORIES, 'Choose one of the seven categories.')),
});

/** What an admin confirms on the site import screen: the category mapping and one choice per source author. */
export const SiteImportMappingFormSchema = CategoryMappingFormSchema.extend({
  authors: z.record(z.string().max(200), SiteAuthorChoiceSchema),
});

/** The largest archive the screens take (the command line reads any size from disk). */
export const IMPORT_UPLOAD_MAX_MB = 512;
