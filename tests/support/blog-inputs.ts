import type { CreateBlogInput } from '~/features/blogs/blogs.schema';

/** A valid blog for service tests; each test overrides only what it is about. */
export const blogInput = (overrides: Partial<CreateBlogInput> = {}): CreateBlogInput => ({
  title: 'Sunset notes',
  category: 'Personal',
  type: 'Mini blog',
  short_description: 'A short one.',
  long_description: 'A longer one.',
  availability: 'Public',
  photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
  ...overrides,
});

/** A blog named by its title alone, for tests that tell blogs apart in mails and notices. */
export const titledBlogInput = (title: string, availability: 'Public' | 'Hidden' = 'Public') => ({
  title,
  category: 'Personal' as const,
  type: 'Mini blog' as const,
  short_description: `About ${title}`,
  long_description: 'Long enough.',
  details: '',
  availability,
  photo: '/uploads/sunset.webp',
});

/** The harbour blog the freshness and end-of-post tests write, retitled per test. */
export const HARBOUR_BLOG = {
  title: 'Harbour lights',
  category: 'Travelling & Photography',
  type: 'Mini blog',
  short_description: 'Boats at dusk.',
  long_description: 'The last ferry, the first lamps.',
  availability: 'Public',
  photo: '/uploads/harbour.webp',
} as const;
