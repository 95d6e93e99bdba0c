import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ImageRoute = (req: IncomingMessage, res: ServerResponse) => void;

export interface ImageServer {
  /** `http://127.0.0.1:PORT`: loopback, which the photo fetch refuses unless IMAGE_FETCH_ALLOW_LOOPBACK is on. */
  url: string;
  /** The paths asked for, in order: a refused address must leave this empty. */
  requests: string[];
  route(path: string, handler: ImageRoute): void;
  close(): Promise<void>;
}

/** Answers `body` as `type`, with its length declared unless `chunked`. */
export const serve =
  (body: Buffer, type = 'image/jpeg', { chunked = false } = {}): ImageRoute =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type, ...(chunked ? {} : { 'content-length': String(body.length) }) });
    res.end(body);
  };

/** A real HTTP server in the test's own process, standing in for another site's picture host. */
export async function startImageServer(): Promise<ImageServer> {
  const routes = new Map<string, ImageRoute>();
  const requests: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise((resolve) => {
        // A route that never answers holds its socket open: end it, or close() would wait forever.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
