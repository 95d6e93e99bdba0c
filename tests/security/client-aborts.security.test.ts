import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { useServer } from '../support/server';

/** Sends a request whose chunked body is malformed (a chunk size that is no number), as raw bytes. */
function sendMalformedChunked(url: string, path: string, type: string, requestId: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${url}\r\nContent-Type: ${type}\r\nX-Request-Id: ${requestId}\r\n` +
          'Transfer-Encoding: chunked\r\n\r\nzz\r\nemail=a\r\n0\r\n\r\n',
      );
    });
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const DOORS = [
  ['the JSON API', '/api/subscribers', 'application/json'],
  ['a page form', '/login', 'application/x-www-form-urlencoded'],
  ["better-auth's own endpoint", '/api/auth/sign-in/email', 'application/json'],
] as const;

/**
 * A body the client broke off (here a malformed chunked body) is the client's failure: logged as a
 * 4xx at info, never as a 503 "database unavailable" or a 500 at error level (audit finding 11).
 */
describe.each(TEST_DIALECTS)('a malformed chunked body on %s', (dialect) => {
  const server = useServer({ LOG_LEVEL: 'info' }, dialect);

  it.each(DOORS)('through %s (%s) is logged as the client’s 4xx', async (_door, path, type) => {
    const requestId = `abort-${dialect}-${path.replace(/\W/g, '')}`;
    const answer = await sendMalformedChunked(server.url, path, type, requestId);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    const lines = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes(requestId))
        .map((line) => JSON.parse(line) as { level: number; status?: number; msg: string });
    await expect.poll(() => lines().some((line) => line.msg === 'request'), { timeout: 30_000 }).toBe(true);
    const request = lines().find((line) => line.msg === 'request')!;
    expect(request.status, JSON.stringify(lines())).toBeGreaterThanOrEqual(400);
    expect(request.status).toBeLessThan(500);
    expect(Math.max(...lines().map((line) => line.level)), JSON.stringify(lines())).toBe(30);
    expect(server.output()).not.toMatch(/database unavailable/);
  });
});
