// `npm run cluster`: Afterglow scaled out on one machine, for real: two stateless app instances on
// PostgreSQL, S3-compatible storage (s3rver) and Redis, behind nginx on http://127.0.0.1:8080.
// Needs the local PostgreSQL and Redis (DATABASE_URL / REDIS_URL override the defaults) and nginx
// (installed from Debian's packages when missing). Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import S3rver from 's3rver';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({ options: { port: { type: 'string', default: '8080' }, instances: { type: 'string', default: '2' } } });
const publicPort = Number(args.port);
const instanceCount = Number(args.instances);
const dir = path.join(root, 'data/cluster');
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/afterglow_cluster';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const s3Port = publicPort + 100;
const bucket = 'afterglow';
const children = [];

function say(line) {
  console.log(`cluster: ${line}`);
}

function ensureNginx() {
  if (spawnSync('sh', ['-c', 'command -v nginx']).status === 0) return;
  say('installing nginx from Debian’s packages…');
  const r = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('nginx is not installed and could not be installed');
}

async function ensureDatabase() {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  await admin.end();
}

function secret() {
  const file = path.join(dir, 'session-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function nginxConfig(ports) {
  return `worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  client_max_body_size 12m;
  upstream afterglow {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${publicPort};
    location /media/ {
      proxy_pass http://127.0.0.1:${s3Port}/;
    }
    location / {
      proxy_pass http://afterglow;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}

function startInstance(port, env) {
  const child = spawn(process.execPath, ['server.js'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  return child;
}

async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function main() {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(root, 'build/server/index.js'))) {
    const r = spawnSync(process.execPath, ['scripts/build.js'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(1);
  }
  ensureNginx();
  await ensureDatabase();
  const s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: bucket }] });
  await s3.run();
  say(`S3-compatible storage on http://127.0.0.1:${s3Port} (bucket ${bucket})`);

  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SESSION_SECRET: secret(),
    PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
    TRUST_PROXY: '127.0.0.1',
    DATA_DIR: dir,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PUBLIC_URL: `http://127.0.0.1:${publicPort}/media/${bucket}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const ports = Array.from({ length: instanceCount }, (_, i) => publicPort + 1 + i);
  // The first instance migrates alone; the others start on a current schema.
  startInstance(ports[0], env);
  await waitFor(`http://127.0.0.1:${ports[0]}/readyz`);
  for (const port of ports.slice(1)) startInstance(port, env);
  await Promise.all(ports.map((p) => waitFor(`http://127.0.0.1:${p}/readyz`)));
  say(`app instances on ${ports.map((p) => `127.0.0.1:${p}`).join(', ')}`);

  writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(ports));
  const nginx = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'inherit' });
  children.push(nginx);
  await waitFor(`http://127.0.0.1:${publicPort}/healthz`);
  say(`ready: http://127.0.0.1:${publicPort} (Ctrl-C stops everything)`);
  writeFileSync(path.join(dir, 'cluster.json'), JSON.stringify({ url: `http://127.0.0.1:${publicPort}`, instances: ports, pids: children.map((c) => c.pid) }, null, 2));

  const stop = async () => {
    say('stopping');
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await s3.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(`afterglow: cluster failed: ${error.message}`);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
