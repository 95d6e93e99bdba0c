// The remote instances of `npm run bench:federation`, in a process of their own so their work is
// not counted against the app's or the load generator's: one listening port per instance on
// 127.0.0.1 (a host is its name and port, so each instance is a host of its own to Fedify and to
// the HTTP client's connection pools, as distinct servers would be; names would need DNS), each
// with a shared inbox (`/inbox`) and personal ones (`/users/<name>/inbox`). Every POST is
// answered 202 after the current delay and counted by port, path and activity type; the first
// few deliveries have their signature verified against the sender's published key.
// Prints one JSON line: { control, ports }. The control port answers GET /stats and
// POST /delay?ms=N.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { verifyRequest } from '@fedify/fedify';
import { getDocumentLoader } from '@fedify/vocab-runtime';

const { values: args } = parseArgs({ options: { instances: { type: 'string', default: '500' }, verify: { type: 'string', default: '5' } } });
const instances = Number(args.instances);
const toVerify = Number(args.verify);
let delayMs = 0;

let inFlight = 0;
/** Deliveries inside a window the bench opens and closes (its page bench during delivery). */
let win = null;
const stats = { maxInFlight: 0, posts: 0, shared: 0, personal: 0, byType: {}, createByPort: {}, firstAt: null, lastAt: null, verified: 0, unverified: 0, verifyErrors: [] };
// The app is on loopback too: its actor documents may be fetched from there.
const documentLoader = getDocumentLoader({ allowPrivateAddress: true });

async function verifySample(req, body, port) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body });
  try {
    const key = await verifyRequest(request, { documentLoader, contextLoader: documentLoader });
    if (key) stats.verified++;
    else stats.unverified++;
  } catch (error) {
    stats.unverified++;
    stats.verifyErrors.push(String(error));
  }
}

function onDelivery(port) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      let type = 'unreadable';
      try {
        type = JSON.parse(body.toString('utf8')).type ?? 'untyped';
      } catch {
        // counted as unreadable
      }
      stats.posts++;
      if (req.url === '/inbox') stats.shared++;
      else stats.personal++;
      stats.byType[type] = (stats.byType[type] ?? 0) + 1;
      if (type === 'Create') stats.createByPort[port] = (stats.createByPort[port] ?? 0) + 1;
      const now = Date.now();
      stats.firstAt ??= now;
      stats.lastAt = now;
      if (stats.posts <= toVerify) void verifySample(req, body, port);
      inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      if (win && !win.closedAt) {
        win.posts++;
        win.maxInFlight = Math.max(win.maxInFlight, inFlight);
      }
      const answer = () => {
        inFlight--;
        res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted');
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  };
}

const listen = (handler) =>
  new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 30_000;
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });

const ports = [];
for (let i = 0; i < instances; i++) {
  let port;
  const handler = (req, res) => onDelivery(port)(req, res);
  port = await listen(handler);
  ports.push(port);
}
const control = await listen((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/delay') {
    delayMs = Number(url.searchParams.get('ms') ?? 0);
    res.writeHead(204).end();
  } else if (url.pathname === '/window') {
    if (url.searchParams.get('open') === '1') win = { posts: 0, maxInFlight: inFlight, openedAt: Date.now(), closedAt: null };
    else if (win) win.closedAt = Date.now();
    res.writeHead(204).end();
  } else if (url.pathname === '/reset') {
    Object.assign(stats, { maxInFlight: 0, posts: 0, shared: 0, personal: 0, byType: {}, createByPort: {}, firstAt: null, lastAt: null });
    res.writeHead(204).end();
  } else {
    const { createByPort, ...rest } = stats;
    const counts = Object.values(createByPort);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ ...rest, window: win, instancesWithCreate: counts.length, createsMostAtOneInstance: counts.length ? Math.max(...counts) : 0 }),
    );
  }
});
console.log(JSON.stringify({ control, ports }));
