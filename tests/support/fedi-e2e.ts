import { afterAll, beforeAll } from 'vitest';
import { type FediPeer, startFediPeer } from './fedi-peer';
import { freePort } from './processes.js';
import { type RunningServer, startServer } from './server';

/** Waits until `check` holds (the server's own worker delivers or takes an activity a moment after the request). */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The built server with federation on at its loopback address, and a peer written with Fedify, for the enclosing block. */
export function useFediServerAndPeer(): { server(): RunningServer; peer(): FediPeer } {
  let server: RunningServer | undefined;
  let peer: FediPeer | undefined;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, FEDERATION_ALLOW_PRIVATE: 'on', SITE_NAME: 'Afterglow' });
    peer = await startFediPeer();
  });
  afterAll(async () => {
    await peer?.close();
    await server?.stop();
  });
  return { server: () => server!, peer: () => peer! };
}
