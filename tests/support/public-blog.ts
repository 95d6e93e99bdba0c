/** A public blog as POST /api/blogs takes it, for tests that need one to read, view or like. */
export const PUBLIC_BLOG = {
  title: 'Counted once',
  category: 'Personal',
  type: 'Mini blog',
  short_description: 'Short.',
  long_description: 'An evening by the water. '.repeat(20),
  availability: 'Public',
  photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
};
