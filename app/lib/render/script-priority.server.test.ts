import { describe, expect, it } from 'vitest';
import { lowerScriptPriority, lowerScriptPriorityStream } from './script-priority.server';

const PAGE =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n"/><link rel="modulepreload" href="/assets/framework.js" nonce="n"/>' +
  '<script type="module" async="">import "/assets/root.js";</script></head>' +
  '<body><pre>&lt;link rel="modulepreload"</pre><p><link rel="modulepreload" href="/x.js"/></p></body></html>';
const EXPECTED =
  '<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/entry.client.js" nonce="n"/><link rel="modulepreload" fetchpriority="low" href="/assets/framework.js" nonce="n"/>' +
  '<script type="module" async="">import "/assets/root.js";</script></head>' +
  '<body><pre>&lt;link rel="modulepreload"</pre><p><link rel="modulepreload" href="/x.js"/></p></body></html>';

async function throughStream(chunks: string[]): Promise<string> {
  const stream = lowerScriptPriorityStream();
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(Buffer.from(chunk));
  stream.end();
  await ended;
  return Buffer.concat(out).toString();
}

describe('script preloads at low priority (decision 042)', () => {
  it('marks every modulepreload link of the head, and nothing after it', () => {
    expect(lowerScriptPriority(Buffer.from(PAGE)).toString()).toBe(EXPECTED);
  });

  it('leaves a page without preloads as it is (the same buffer)', () => {
    const page = Buffer.from('<html><head><title>x</title></head><body></body></html>');
    expect(lowerScriptPriority(page)).toBe(page);
  });

  it('gives the same bytes when the stream is cut anywhere, a link or </head> included', async () => {
    for (let cut = 1; cut < PAGE.length; cut++) {
      expect(await throughStream([PAGE.slice(0, cut), PAGE.slice(cut)])).toBe(EXPECTED);
    }
    // React writes small chunks: every 7 bytes.
    const small: string[] = [];
    for (let at = 0; at < PAGE.length; at += 7) small.push(PAGE.slice(at, at + 7));
    expect(await throughStream(small)).toBe(EXPECTED);
  });
});
