import { describe, expect, it } from 'vitest';
import { CreateBlogSchema } from '~/features/blogs/blogs.schema';
import { UpdateProfileSchema } from '~/features/users/users.schema';
import { ClearablePhotoUrlSchema, isPhotoUrl, PHOTO_MAX_LENGTH, PhotoUrlSchema } from './photo-url.schema';

const REFUSED = [
  '/\t/evil.example/t.png',
  '/\\evil.example/t.png',
  '//evil.example/t.png',
  '/uploads/..',
  '/uploads/a/b.webp',
  '/api/logout',
  '/uploads/a\u0000b.webp',
  'https://example.com/a\u0085b.png',
  'https://example.com/a\tb.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  `https://example.com/${'a'.repeat(PHOTO_MAX_LENGTH)}`,
];
const ACCEPTED = ['/uploads/me-1600.webp', 'https://lh3.googleusercontent.com/a/photo.jpg', 'http://127.0.0.1:9000/bucket/a-1600.webp'];

describe('the one photo rule (blogs and people)', () => {
  it('refuses the same addresses for a blog and for a person, and accepts the same', () => {
    for (const photo of REFUSED) {
      expect(PhotoUrlSchema.safeParse(photo).success, JSON.stringify(photo)).toBe(false);
      expect(ClearablePhotoUrlSchema.safeParse(photo).success, JSON.stringify(photo)).toBe(false);
    }
    for (const photo of ACCEPTED) {
      expect(isPhotoUrl(photo), photo).toBe(true);
      expect(PhotoUrlSchema.parse(photo)).toBe(photo);
      expect(UpdateProfileSchema.parse({ photo }).photo).toBe(photo);
    }
  });

  it('differs only in whether it may be cleared: a blog needs one, a person may send it empty', () => {
    expect(PhotoUrlSchema.safeParse('').error?.issues[0]?.message).toBe('This field is required');
    expect(ClearablePhotoUrlSchema.parse('')).toBeNull();
    const blog = { title: 't', category: 'Personal', type: 'Video', short_description: 's', long_description: 'l', availability: 'Public' };
    expect(CreateBlogSchema.safeParse({ ...blog, photo: 'javascript:alert(1)' }).error?.issues[0]?.message).toBe('Photo must be an image URL');
    expect(CreateBlogSchema.safeParse({ ...blog, photo: ACCEPTED[0] }).success).toBe(true);
  });
});
