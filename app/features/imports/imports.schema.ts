import { z } from 'zod';
import { BLOG_CATEGORIES } from '~/features/blogs/blogs.constants';

/** The import's choices (docs/decisions/072), from the screens and the command line alike. */
export const ImportOptionsSchema = z.object({
  /** Source category (or tag) name → one of our seven; names left out take the default mapping. */
  categories: z.record(z.string().max(200), z.enum(BLOG_CATEGORIES, 'Choose one of the seven categories.')).default({}),
  /** Source author id → an account's id (a site import); unmapped authors' posts go to the importer. */
  authors: z.record(z.string().max(200), z.string().max(100)).default({}),
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

/** The largest archive the screens take (the command line reads any size from disk). */
export const IMPORT_UPLOAD_MAX_MB = 512;
