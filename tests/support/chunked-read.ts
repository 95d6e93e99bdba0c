import { expect } from 'vitest';
import type { ImportBundle, ImportPost, ReadOptions } from '~/features/imports/import-model';

/**
 * Reads an archive whole, then handing its posts on in chunks of `size` (docs/decisions/095):
 * the posts handed on and those left in the bundle are the whole bundle's, in its order, and the
 * rest of the bundle is the same. Answers the chunks' sizes.
 */
export async function expectChunkedAsWhole(read: (options: ReadOptions) => Promise<ImportBundle>, size: number): Promise<number[]> {
  const whole = await read({});
  const chunks: number[] = [];
  const handed: ImportBundle['posts'] = [];
  const rest = await read({ chunk: size, onPosts: async (posts) => void (chunks.push(posts.length), handed.push(...posts)) });
  expect(chunks.length).toBeGreaterThan(1);
  expect(chunks.every((n) => n === size)).toBe(true);
  expect(rest.posts.length).toBeLessThan(size);
  expect([...handed, ...rest.posts]).toEqual(whole.posts);
  expect({ ...rest, posts: [] }).toEqual({ ...whole, posts: [] });
  return chunks;
}

/**
 * Reads an archive handing its posts on in chunks of `size` to a list of staged rows (their JSON),
 * rewritten as the scan's `onRewrite` does (docs/decisions/095). Answers the rows, the chunks'
 * sizes, the indexes rewritten and the bundle left.
 */
export async function readStaged(read: (options: ReadOptions) => Promise<ImportBundle>, size: number) {
  const staged: string[] = [];
  const chunks: number[] = [];
  const rewritten: number[] = [];
  const rest = await read({
    chunk: size,
    onPosts: async (posts) => void (chunks.push(posts.length), staged.push(...posts.map((p) => JSON.stringify(p)))),
    onRewrite: async (indexes, rewrite) => {
      for (const index of indexes) staged[index] = JSON.stringify(rewrite(index, JSON.parse(staged[index]!) as ImportPost));
      rewritten.push(...indexes);
    },
  });
  return { staged, chunks, rewritten, rest };
}
