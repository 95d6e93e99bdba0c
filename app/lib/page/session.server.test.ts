import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { safeRedirectPath } from './session.server';

describe('safeRedirectPath', () => {
  it('keeps a path of this site, normalised and encoded', () => {
    expect(safeRedirectPath('/blogs/1?tab=2#comments')).toBe('/blogs/1?tab=2#comments');
    expect(safeRedirectPath('/allblogs/é ü')).toBe('/allblogs/%C3%A9%20%C3%BC');
  });

  it('falls back for other sites, header injection and anything that is not a path', () => {
    for (const target of ['//', '//evil.test', '/\\evil.test', 'https://evil.test/', 'javascript:alert(1)', '/\r\nSet-Cookie: x=1', '/a\u0000b', '', null, undefined]) {
      expect(safeRedirectPath(target, '/home'), String(target)).toBe('/home');
    }
  });
});

describe('safeRedirectPath after normalising (audit item 3)', () => {
  const ORIGIN = 'http://a.example';

  it('falls back for paths that normalise into another origin', () => {
    for (const target of ['/.//evil.example/x', '/%2e//evil.example/x', '/a/..//evil.example/x', '/./\\evil.example/x', '/.%2e//evil.example', '/./\\/evil.example']) {
      expect(safeRedirectPath(target), target).toBe('/');
    }
  });

  it('whatever the input, the result stays on this origin', () => {
    const segment = fc.constantFrom('/', '\\', '.', '..', '%2e', '%2E', '%2f', '//', '/\\', 'evil.example', '@', ':', '?', '#', '\t', '\n', ' ', 'é', 'http:');
    const input = fc.oneof(fc.string(), fc.array(segment, { maxLength: 12 }).map((parts) => `/${parts.join('')}`));
    fc.assert(
      fc.property(input, (target) => {
        const result = safeRedirectPath(target);
        expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
        expect(result.startsWith('/') && !result.startsWith('//')).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });
});
