import { afterAll, beforeAll } from 'vitest';
import { type FediPeer, startFediPeer } from './fedi-peer';
import { freePort } from './processes.js';
import { type RunningServer, startServer } from './server';

export { eventually } from './eventually';

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
