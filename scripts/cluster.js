// `npm run cluster`: Afterglow scaled out on one machine, for real: two stateless app instances on
// PostgreSQL, S3-compatible storage (s3rver) and Redis, behind nginx on http://127.0.0.1:8080.
// Needs the local PostgreSQL and Redis (DATABASE_URL / REDIS_URL override the defaults) and nginx
// (installed from Debian's packages when missing). Ctrl-C stops everything.
// `startCluster` is also what the cluster tests (tests/cluster) and `npm run cluster:load` use.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import S3rver from 's3rver';
import { ensureBuild, serverEnv, serverNodeFlags } from './ensure-build.js';

const root = path.resolve(import.meta.dirname, '..');
export const BUCKET = 'afterglow';

export function ensureNginx(say = console.log) {
  if (spawnSync('sh', ['-c', 'command -v nginx']).status === 0) return;
  say('installing nginx from Debian’s packages…');
  const r = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('nginx is not installed and could not be installed');
}

const adminUrl = (databaseUrl) => Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString();
const databaseName = (databaseUrl) => new URL(databaseUrl).pathname.slice(1).replace(/"/g, '');

async function onAdmin(databaseUrl, fn) {
  const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await admin.connect();
  try {
    return await fn(admin, databaseName(databaseUrl));
  } finally {
    await admin.end();
  }
}

const ensureDatabase = (databaseUrl) =>
  onAdmin(databaseUrl, async (admin, name) => {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name}"`);
  });

export const dropDatabase = (databaseUrl) => onAdmin(databaseUrl, (admin, name) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));

function secret(dir) {
  const file = path.join(dir, 'session-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * nginx in front of the instances. A dead instance costs only the requests it had in flight:
 * a refused connection or a reset before any answer sends idempotent requests (GET, HEAD, PUT,
 * DELETE) to the other instance, and non-idempotent ones too when nothing was sent yet (nginx's
 * rule); one failure takes the instance out for 5 s, then nginx tries it again. nginx is the
 * edge, so it sets X-Forwarded-For to the client it sees instead of appending to what the
 * client sent: a client cannot pick its own address for the rate limits.
 */
export function nginxConfig({ dir, publicPort, ports, s3Port }) {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  client_max_body_size 12m;
  upstream afterglow {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${publicPort} backlog=4096;
    # nginx closes a client's keep-alive connection after 1,000 requests by default; a client
    # that has already sent its next request then sees a reset (7 in a 5-minute load run).
    keepalive_requests 100000;
    location /media/ {
      proxy_pass http://127.0.0.1:${s3Port}/;
    }
    location / {
      proxy_pass http://afterglow;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
}

async function waitFor(url, child) {
  for (let i = 0; i < 300; i++) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * Starts the whole cluster and answers a handle: `url` (nginx), `instances` (each with its own
 * `url`, `kill(signal)` and `start()`), `env` (what every instance got) and `stop()`.
 * `quiet` sends each process's output to a log file in `dir` instead of this terminal.
 */
export async function startCluster({
  port = 8080,
  instances = 2,
  dir = path.join(root, 'data/cluster'),
  databaseUrl = 'postgres://postgres@127.0.0.1:5432/afterglow_cluster',
  redisUrl = 'redis://127.0.0.1:6379/0',
  rateLimits = 'on',
  quiet = false,
  say = (line) => console.log(`cluster: ${line}`),
} = {}) {
  mkdirSync(dir, { recursive: true });
  const children = new Set();
  const s3Port = port + 100;
  let s3;
  const spawnTracked = (command, args, options, name) => {
    const log = quiet ? openSync(path.join(dir, `${name}.log`), 'a') : 'inherit';
    const child = spawn(command, args, { ...options, stdio: ['ignore', log, log] });
    if (quiet) closeSync(log);
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all([...children].map((c) => new Promise((r) => c.once('exit', r))));
    await s3?.close();
  };
  try {
    ensureBuild(say);
    ensureNginx(say);
    await ensureDatabase(databaseUrl);
    s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: BUCKET }] });
    await s3.run();
    say(`S3-compatible storage on http://127.0.0.1:${s3Port} (bucket ${BUCKET})`);

    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      RATE_LIMITS: rateLimits,
      SESSION_SECRET: secret(dir),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: '127.0.0.1',
      DATA_DIR: dir,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PUBLIC_URL: `http://127.0.0.1:${port}/media/${BUCKET}`,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    };
    const handles = Array.from({ length: instances }, (_, i) => {
      const instancePort = port + 1 + i;
      const handle = {
        port: instancePort,
        url: `http://127.0.0.1:${instancePort}`,
        child: null,
        async start() {
          handle.child = spawnTracked(process.execPath, [...serverNodeFlags(), 'server.js'], { cwd: root, env: { ...serverEnv(), ...process.env, ...env, PORT: String(instancePort), HOST: '127.0.0.1', NODE_ENV: 'production' } }, `instance-${instancePort}`);
          await waitFor(`${handle.url}/readyz`, handle.child);
        },
        kill(signal = 'SIGKILL') {
          const exited = new Promise((r) => handle.child.once('exit', r));
          handle.child.kill(signal);
          return exited;
        },
      };
      return handle;
    });
    // The first instance migrates alone; the others start on a current schema.
    await handles[0].start();
    await Promise.all(handles.slice(1).map((h) => h.start()));
    say(`app instances on ${handles.map((h) => h.url.replace('http://', '')).join(', ')}`);

    writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig({ dir, publicPort: port, ports: handles.map((h) => h.port), s3Port }));
    const nginx = spawnTracked('nginx', ['-e', path.join(dir, 'nginx-error.log'), '-p', dir, '-c', path.join(dir, 'nginx.conf')], {}, 'nginx');
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/healthz`, nginx);
    say(`ready: ${url}`);
    return { url, instances: handles, env, s3Port, bucket: BUCKET, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({ options: { port: { type: 'string', default: '8080' }, instances: { type: 'string', default: '2' } } });
  try {
    const cluster = await startCluster({
      port: Number(args.port),
      instances: Number(args.instances),
      ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
      ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
      ...(process.env.RATE_LIMITS ? { rateLimits: process.env.RATE_LIMITS } : {}),
    });
    console.log('cluster: Ctrl-C stops everything');
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      console.log('cluster: stopping');
      await cluster.stop();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    console.error(`afterglow: cluster failed: ${error.message}`);
    process.exit(1);
  }
}
