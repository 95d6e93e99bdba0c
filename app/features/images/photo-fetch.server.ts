import { lookup } from 'node:dns';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '~/lib/core/errors';
import type { PhotoFetchPolicy } from '~/lib/core/service-context';

/** The limits of one fetch (docs/decisions/050); `allowLoopback` is test-only. */
export type PhotoFetchLimits = Omit<PhotoFetchPolicy, 'ownBases'>;

/** Redirects followed at most; each one's address is checked like the first. */
export const MAX_PHOTO_REDIRECTS = 3;

const refuse = (reason: string) => new AppError('bad_request', `photo: ${reason}`, 'photo');

// Everything that is not the public internet: this host, private networks, carrier-grade NAT,
// link-local (cloud metadata at 169.254.169.254), documentation, benchmarking, multicast, reserved.
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(net, prefix, 'ipv4');
// IPv6: only global unicast (2000::/3) is public. Inside it, the ranges that carry an IPv4
// address (6to4, Teredo) or lead nowhere public (documentation, ORCHID, benchmarking) are refused.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
for (const [net, prefix] of [['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['3fff::', 20]] as const) INTERNAL.addSubnet(net, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether `address` (an IP literal) is on the public internet; loopback too when `allowLoopback`. */
export function isPublicAddress(address: string, allowLoopback = false): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(address, type)) return true;
  if (type === 'ipv6' && !GLOBAL_UNICAST.check(address, 'ipv6')) return false;
  return !INTERNAL.check(address, type);
}

/**
 * A DNS lookup that resolves every address of the host and refuses the host when any one of them
 * is internal, then connects to one it checked: the address connected to is the address checked,
 * so a name that answers differently the second time (DNS rebinding) gains nothing.
 */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const internal = addresses.find((a) => !isPublicAddress(a.address, allowLoopback));
      if (addresses.length === 0 || internal) return callback(Object.assign(new Error(`internal address ${internal?.address ?? 'none'}`), { code: 'EINTERNAL' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const NOT_PUBLIC = 'must be a picture on the public internet, not an address inside a private network';

/** The URL, checked: http(s) only, no credentials, and a literal IP address only when public. */
function checkedUrl(address: string, limits: PhotoFetchLimits): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse('must be an image URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must be an http or https address');
  if (url.username || url.password) throw refuse('must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host, limits.allowLoopback)) throw refuse(NOT_PUBLIC);
  return url;
}

interface Answer {
  status: number;
  location?: string;
  body?: Buffer;
}

/** One GET without following redirects; the body is read only for a 2xx, and only up to the limit. */
function getOnce(url: URL, limits: PhotoFetchLimits, signal: AbortSignal): Promise<Answer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      signal,
      lookup: guardedLookup(limits.allowLoopback),
      // No agent: a fresh connection per fetch, so no socket opened for another host is reused.
      agent: false,
      headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1', 'user-agent': 'Afterglow photo fetch' },
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        return resolve({ status, location: res.headers.location });
      }
      const declared = Number(res.headers['content-length'] ?? Number.NaN);
      if (declared > limits.maxBytes) {
        req.destroy();
        return reject(tooLarge(limits.maxBytes));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          req.destroy();
          return reject(tooLarge(limits.maxBytes));
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks, size) }));
      res.on('error', reject);
    });
    req.end();
  });
}

const tooLarge = (maxBytes: number) => refuse(`must be at most ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB`);

/** Our own refusals pass as they are; a network failure becomes a sentence the writer can act on. */
function fetchFailure(error: unknown, limits: PhotoFetchLimits, timedOut: boolean): AppError {
  if (error instanceof AppError) return error;
  if (timedOut) return refuse(`could not be fetched within ${limits.timeoutMs / 1000} seconds`);
  const code = (error as { code?: string }).code;
  if (code === 'EINTERNAL') return refuse(NOT_PUBLIC);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return refuse('could not be fetched: its host name was not found');
  return refuse('could not be fetched: its server did not answer');
}

/**
 * The bytes at `address`, fetched once by the server: http(s) only; every address of the host
 * public (checked for the first request and for every redirect, up to MAX_PHOTO_REDIRECTS);
 * at most `maxBytes`, within `timeoutMs`. What the bytes are is left to the image pipeline
 * (sharp judges the decoded content, never a declared type). Refusals are 400s on `photo`.
 */
export async function fetchPhoto(address: string, limits: PhotoFetchLimits): Promise<Buffer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  try {
    let url = checkedUrl(address, limits);
    for (let redirects = 0; ; redirects++) {
      const answer = await getOnce(url, limits, controller.signal);
      if (answer.body) return answer.body;
      if (answer.status >= 300 && answer.status < 400 && answer.location) {
        if (redirects >= MAX_PHOTO_REDIRECTS) throw refuse(`could not be fetched: it redirected more than ${MAX_PHOTO_REDIRECTS} times`);
        url = checkedUrl(new URL(answer.location, url).href, limits);
        continue;
      }
      throw refuse(`could not be fetched: its server answered ${answer.status}`);
    }
  } catch (error) {
    throw fetchFailure(error, limits, timedOut);
  } finally {
    clearTimeout(timer);
  }
}
