import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './session.server';

describe('safeRedirectPath', () => {
  it('keeps a path of this site, normalised and encoded', () => {
    expect(safeRedirectPath('/blogs/1?tab=2#comments')).toBe('/blogs/1?tab=2#comments');
    expect(safeRedirectPath('/allblogs/é ü')).toBe('/allblogs/%C3%A9%20%C3%BC');
  });

  it('falls back for other sites, header injection and anything that is not a path', () => {
    for (const target of ['//evil.test', '/\\evil.test', 'https://evil.test/', 'javascript:alert(1)', '/\r\nSet-Cookie: x=1', '/a\u0000b', '', null, undefined]) {
      expect(safeRedirectPath(target, '/home'), String(target)).toBe('/home');
    }
  });
});
