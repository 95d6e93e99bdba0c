import { describe, expect, it } from 'vitest';
import { AddWishlistSchema } from './wishlist.schema';

const home = { blogId: 'b1', title: 'T', photo: 'https://x.example/p.webp', email: 'a@b.c', category: 'Personal', createdAt: '2026-11-22T10:00:00.000Z', description: 'd' };
const allBlogs = { blogId: 'b1', title: 'T', photo: null, email: 'a@b.c', category: 'Personal', likeCount: 3, description: 'd' };

describe('AddWishlistSchema', () => {
  it('reads both POST /wishlist payloads and keeps only the blog and where it came from', () => {
    expect(AddWishlistSchema.parse(home)).toEqual({ blogId: 'b1', source: 'home' });
    expect(AddWishlistSchema.parse(allBlogs)).toEqual({ blogId: 'b1', source: 'allblogs' });
    expect(AddWishlistSchema.parse({ blogId: ' b2 ' })).toEqual({ blogId: 'b2', source: 'home' });
  });

  it('names the field that is wrong', () => {
    const field = (input: unknown) => AddWishlistSchema.safeParse(input).error?.issues[0]?.path.join('.');
    expect(field({ ...home, blogId: '' })).toBe('blogId');
    expect(field({ title: 'no id' })).toBe('blogId');
    expect(field({ ...allBlogs, likeCount: -1 })).toBe('likeCount');
    expect(field({ ...allBlogs, likeCount: 1.5 })).toBe('likeCount');
    expect(field({ ...home, createdAt: 'yesterday' })).toBe('createdAt');
    expect(field({ ...home, photo: 42 })).toBe('photo');
    expect(field({ ...home, description: 'x'.repeat(1001) })).toBe('description');
  });
});
