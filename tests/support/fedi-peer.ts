import { createServer, type Server } from 'node:http';
import { createFederation, type Federation, generateCryptoKeyPair, MemoryKvStore } from '@fedify/fedify';
import { Accept, Activity, Announce, Create, Delete, Endpoints, Follow, Person, Undo, Update } from '@fedify/vocab';
import { getRequestListener } from '@hono/node-server';

/**
 * An independent fediverse server for tests, written with Fedify's own vocabulary and nothing of
 * Afterglow: one Person (`/users/{name}`) with in-memory keys, an inbox that records what arrives
 * (signatures verified by Fedify), and no queue, so what it sends leaves at once.
 */
export interface FediPeer {
  origin: string;
  federation: Federation<void>;
  /** Activities its inbox accepted, oldest first. */
  received: Activity[];
  actorUri(name: string): URL;
  keys: CryptoKeyPair;
  /** While true, every request is answered 503, as by a server that is down. */
  down: boolean;
  close(): Promise<void>;
}

export async function startFediPeer(): Promise<FediPeer> {
  const received: Activity[] = [];
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | null = null;
  const state = { down: false };
  const server: Server = createServer((req, res) => (handler && !state.down ? handler(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const federation = createFederation<void>({ kv: new MemoryKvStore(), origin, allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      const [pair] = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: `Peer ${identifier}`,
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pair?.cryptographicKey,
      });
    })
    .setKeyPairsDispatcher(() => [keys]);
  const record = async (_ctx: unknown, activity: Activity) => void received.push(activity);
  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Accept, record)
    .on(Create, record)
    .on(Update, record)
    .on(Delete, record)
    .on(Announce, record)
    .on(Undo, record)
    .on(Follow, record);
  handler = getRequestListener((request) => federation.fetch(request, { contextData: undefined }));

  return {
    origin,
    federation,
    received,
    keys,
    actorUri: (name) => new URL(`/users/${name}`, origin),
    get down() {
      return state.down;
    },
    set down(down: boolean) {
      state.down = down;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
