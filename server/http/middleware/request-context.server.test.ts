import { describe, expect, it } from 'vitest';
import { resolveClientIp } from './request-context.server';

describe('client address', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(resolveClientIp('203.0.113.9', '1.2.3.4', [])).toBe('203.0.113.9');
  });
  it('strips the IPv4-mapped prefix', () => {
    expect(resolveClientIp('::ffff:127.0.0.1', undefined, [])).toBe('127.0.0.1');
  });
  it('takes the right-most untrusted hop behind a trusted proxy', () => {
    expect(resolveClientIp('10.0.0.2', 'spoofed, 198.51.100.7, 10.0.0.3', ['10.0.0.2', '10.0.0.3'])).toBe('198.51.100.7');
  });
});
