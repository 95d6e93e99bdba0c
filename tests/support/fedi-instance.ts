import { createServer, type Server } from 'node:http';
import { Follow } from '@fedify/vocab';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import type { DialectName } from '~/db/schema';
import { type FediPeer, startFediPeer } from './fedi-peer';
import { createTestApp, type TestApp, type TestFederation, type TestUser } from './test-app';

export interface ServedTestApp {
  t: TestApp;
  origin: string;
  close(): Promise<void>;
}

/**
 * A test app (real database, no React Router) listening on a loopback port, with PUBLIC_URL set
 * to that port and federation on, so other servers reach it over real HTTP. The port is taken
 * first: ids are made from PUBLIC_URL, which must be known before the app starts.
 */
export async function serveTestApp(dialect: DialectName, env: Record<string, string> = {}, federation: TestFederation = {}): Promise<ServedTestApp> {
  let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp(dialect, { PUBLIC_URL: origin, FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE: 'on', ...env }, federation);
  handler = getRequestListener((request) => t.app.fetch(request, { incoming: { socket: { remoteAddress: '127.0.0.1' } } }));
  return {
    t,
    origin,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await t.close();
    },
  };
}

/** A served test app of `dialect` and an independent peer for the enclosing block, both closed after it. */
export function useServedAppAndPeer(dialect: DialectName, env: Record<string, string> = {}): { site(): ServedTestApp; peer(): FediPeer } {
  let site: ServedTestApp | undefined;
  let peer: FediPeer | undefined;
  beforeAll(async () => {
    site = await serveTestApp(dialect, env);
    peer = await startFediPeer();
  });
  afterAll(async () => {
    await peer?.close();
    await site?.close();
  });
  return { site: () => site!, peer: () => peer! };
}

/** A writer and a moderator on a served app, and the writer's actor id. */
export async function writerAndModerator(site: ServedTestApp): Promise<{ writer: TestUser; moderator: TestUser; writerUri: URL }> {
  const writer = await site.t.createUser({ name: 'Ada Lovelace' });
  const moderator = await site.t.createUser({ name: 'Mo Derator' });
  await site.t.deps.database.db.insertInto('user_roles').values({ user_id: moderator.user.id, role: 'moderator', granted_by: null, granted_at: new Date().toISOString() }).execute();
  return { writer, moderator, writerUri: new URL(`/ap/actors/${writer.user.id}`, site.origin) };
}

/** The peer's account `name` follows a local actor (accepted when the site's jobs run), so what it sends reaches the peer. */
export async function followFromPeer(site: ServedTestApp, peer: FediPeer, actorUri: URL, name = 'reader'): Promise<void> {
  const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
  const follow = new Follow({ id: new URL(`#follow/${encodeURIComponent(actorUri.href)}`, peer.actorUri(name)), actor: peer.actorUri(name), object: actorUri });
  await ctx.sendActivity({ identifier: name }, { id: actorUri, inboxId: new URL(`${actorUri.href}/inbox`) }, follow);
  await site.t.runJobs();
}
