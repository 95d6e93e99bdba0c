import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegImage } from '../../../tests/support/images';
import { type ImageServer, serve, startImageServer } from '../../../tests/support/image-server';
import { fetchPhoto, isPublicAddress, MAX_PHOTO_REDIRECTS, type PhotoFetchLimits } from './photo-fetch.server';

const INTERNAL = [
  '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
  '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.7', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
  '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2001::1', '2001:db8::1',
];
const PUBLIC = ['93.184.216.34', '1.1.1.1', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'];

describe('which addresses a photo may be fetched from', () => {
  it('refuses this host, private networks, link-local, mapped and reserved ranges; accepts the public internet', () => {
    expect(INTERNAL.filter((a) => isPublicAddress(a))).toEqual([]);
    expect(PUBLIC.filter((a) => !isPublicAddress(a))).toEqual([]);
    expect(isPublicAddress('not-an-address')).toBe(false);
  });

  it('with the test-only allowance, lets loopback through and nothing else', () => {
    const loopback = ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'];
    expect(loopback.every((a) => isPublicAddress(a, true))).toBe(true);
    const stillRefused = INTERNAL.filter((a) => !loopback.includes(a));
    expect(stillRefused.filter((a) => isPublicAddress(a, true))).toEqual([]);
  });
});

const LIMITS: PhotoFetchLimits = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, allowLoopback: false };
const ALLOWED: PhotoFetchLimits = { ...LIMITS, allowLoopback: true };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'fetched',
    (error: { status?: number; message: string; field?: string }) => `${error.status} ${error.field}: ${error.message}`,
  );

describe('fetching a photo from an address, against a real HTTP server', () => {
  let images: ImageServer;
  let jpeg: Buffer;
  let stalled: Server;
  let stalledUrl = '';

  beforeAll(async () => {
    jpeg = await jpegImage(640, 400);
    images = await startImageServer();
    images.route('/sunset.jpg', serve(jpeg));
    images.route('/chunked.jpg', serve(jpeg, 'image/jpeg', { chunked: true }));
    const big = randomBytes(200 * 1024);
    images.route('/big.jpg', serve(big));
    images.route('/big-chunked.jpg', serve(big, 'image/jpeg', { chunked: true }));
    images.route('/to-metadata', (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
    images.route('/to-private', (_req, res) => res.writeHead(301, { location: 'http://10.0.0.7/photo.jpg' }).end());
    images.route('/to-file', (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    images.route('/to-sunset', (_req, res) => res.writeHead(302, { location: '/sunset.jpg' }).end());
    images.route('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    // Accepts the connection and never answers.
    stalled = createServer(() => {});
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/slow.jpg`;
  });
  afterAll(async () => {
    await images.close();
    stalled.closeAllConnections();
    await new Promise((resolve) => stalled.close(resolve));
  });

  it('without the allowance, refuses loopback by literal, by name and by every spelling, before connecting', async () => {
    const port = new URL(images.url).port;
    const spellings = [`${images.url}/sunset.jpg`, `http://localhost:${port}/sunset.jpg`, `http://[::1]:${port}/sunset.jpg`, `http://2130706433:${port}/sunset.jpg`, `http://0x7f.1:${port}/sunset.jpg`, `http://[::ffff:127.0.0.1]:${port}/sunset.jpg`];
    const answers = await Promise.all(spellings.map((address) => refusal(fetchPhoto(address, LIMITS))));
    expect(answers).toEqual(spellings.map(() => '400 photo: photo: must be a picture on the public internet, not an address inside a private network'));
    expect(images.requests).toEqual([]);
  });

  it('refuses what is not http(s) and addresses with credentials', async () => {
    expect(await refusal(fetchPhoto('ftp://example.org/a.jpg', ALLOWED))).toBe('400 photo: photo: must be an http or https address');
    expect(await refusal(fetchPhoto(`http://me:secret@127.0.0.1:1/a.jpg`, ALLOWED))).toBe('400 photo: photo: must not carry a user name or password');
  });

  it('with the allowance, fetches the real image, also when its length is not declared or it is reached by a redirect', async () => {
    expect((await fetchPhoto(`${images.url}/sunset.jpg`, ALLOWED)).equals(jpeg)).toBe(true);
    expect((await fetchPhoto(`${images.url}/chunked.jpg`, ALLOWED)).equals(jpeg)).toBe(true);
    expect((await fetchPhoto(`${images.url}/to-sunset`, ALLOWED)).equals(jpeg)).toBe(true);
  });

  it('checks every redirect like the first address: to link-local metadata, a private network or a file, refused', async () => {
    const before = images.requests.length;
    for (const path of ['/to-metadata', '/to-private']) {
      expect(await refusal(fetchPhoto(`${images.url}${path}`, ALLOWED))).toBe('400 photo: photo: must be a picture on the public internet, not an address inside a private network');
    }
    expect(await refusal(fetchPhoto(`${images.url}/to-file`, ALLOWED))).toBe('400 photo: photo: must be an http or https address');
    expect(await refusal(fetchPhoto(`${images.url}/loop`, ALLOWED))).toBe(`400 photo: photo: could not be fetched: it redirected more than ${MAX_PHOTO_REDIRECTS} times`);
    // Only our server was asked: three redirecting answers and the loop's first hop plus its redirects.
    expect(images.requests.slice(before)).toEqual(['/to-metadata', '/to-private', '/to-file', ...Array(MAX_PHOTO_REDIRECTS + 1).fill('/loop')]);
  });

  it('refuses a body above the size limit, declared or not, and an answer that is not 2xx', async () => {
    const small = { ...ALLOWED, maxBytes: 100 * 1024 };
    expect(await refusal(fetchPhoto(`${images.url}/big.jpg`, small))).toBe('400 photo: photo: must be at most 0.1 MB');
    expect(await refusal(fetchPhoto(`${images.url}/big-chunked.jpg`, small))).toBe('400 photo: photo: must be at most 0.1 MB');
    expect(await refusal(fetchPhoto(`${images.url}/missing.jpg`, ALLOWED))).toBe('400 photo: photo: could not be fetched: its server answered 404');
  });

  it('gives up on a server that never answers, after the time limit', async () => {
    expect(await refusal(fetchPhoto(stalledUrl, { ...ALLOWED, timeoutMs: 200 }))).toBe('400 photo: photo: could not be fetched within 0.2 seconds');
  });

  it('says so when the host name does not exist', async () => {
    expect(await refusal(fetchPhoto('http://no-such-host.invalid/a.jpg', LIMITS))).toBe('400 photo: photo: could not be fetched: its host name was not found');
  });
});
