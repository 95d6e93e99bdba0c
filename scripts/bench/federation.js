// `npm run bench:federation`: delivery of one post to 10,000 followers on 500 remote instances,
// against the production server (built; SQLite, or PostgreSQL with DATABASE_URL) with PUBLIC_URL
// set and FEDERATION_ALLOW_PRIVATE=on, in a process of its own, on a freshly seeded data set.
// The instances are scripts/bench/fedi-sink.js, in a process of its own too. The followers are
// rows of remote_followers as an accepted Follow leaves them (actor, inbox, shared inbox), spread
// evenly over the instances; the post is published through the API as a writer would.
// 1. Delivery alone, the sink answering at once: time from the publish to the last instance's
//    Create, deliveries per second, how many requests went out (one per shared inbox expected),
//    a sample of signatures verified, the app's CPU and peak memory.
// 2. The live anonymous blog-page scenario without delivery, while a second post is delivered
//    (the sink answering each request after --delay ms, so delivery lasts), and after; the pages
//    are warmed again after the publish, and the sink counts the deliveries inside the window.
// Options: --followers 10000, --instances 500, --delay 100, --no-shared (every follower without
// a shared inbox: one delivery per follower), --blogs 1000, --duration 10, --connections 10,
// --profile <dir> (the app under `--cpu-prof`, its profile written there when it stops, the
// windows' bounds on its clock in <dir>/windows.tsv), --rounds 1 (phase 2 that many times on the
// same site, a new post each round, with the median of the rounds' ratios).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startServerProcess } from '../../tests/support/processes.js';
import { BUILT_SERVER, ensureBuild, serverNodeFlags } from '../ensure-build.js';
import { cpuMsOf, freshSite, livePagesDuring, livePagesTable, median, monotonicMs, rssOf, signInWriters, writeStreams } from './live.js';

const root = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    followers: { type: 'string', default: '10000' },
    instances: { type: 'string', default: '500' },
    delay: { type: 'string', default: '100' },
    shared: { type: 'boolean', default: true },
    blogs: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    profile: { type: 'string' },
    rounds: { type: 'string', default: '1' },
  },
  allowNegative: true,
});
const followers = Number(args.followers);
const instances = Number(args.instances);
const delayMs = Number(args.delay);
const duration = Number(args.duration);
const connections = Number(args.connections);
args.rounds = Math.max(1, Number(args.rounds));
const expected = args.shared ? instances : followers;
const profileDir = args.profile ? path.resolve(args.profile) : null;
const dialect = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
const FEDI_WRITER = { email: 'fediverse@bench.afterglow.test', password: 'Sunset123', name: 'Bench Fediverse Writer' };
const say = (line) => process.stderr.write(`${line}\n`);

async function startSink() {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'fedi-sink.js'), '--instances', String(instances)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const { control, ports } = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`the sink exited (${code})`)));
  });
  const base = `http://127.0.0.1:${control}`;
  return {
    child,
    ports,
    stats: async () => (await fetch(`${base}/stats`)).json(),
    setDelay: async (ms) => void (await fetch(`${base}/delay?ms=${ms}`, { method: 'POST' })),
    reset: async () => void (await fetch(`${base}/reset`, { method: 'POST' })),
    window: async (open) => void (await fetch(`${base}/window?open=${open ? 1 : 0}`, { method: 'POST' })),
  };
}

/** The writer whose followers are remote: a new account, so the live activity's comments (on seeded blogs) go nowhere. */
async function addFollowers(env, ports) {
  const { openDeps } = await import(BUILT_SERVER);
  const deps = await openDeps({ ...env, LOG_LEVEL: 'warn' });
  await deps.auth.api.signUpEmail({ body: FEDI_WRITER });
  const { db } = deps.database;
  const writer = await db.selectFrom('user').select('id').where('email', '=', FEDI_WRITER.email).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const rows = Array.from({ length: followers }, (_, k) => {
    const origin = `http://127.0.0.1:${ports[k % ports.length]}`;
    return {
      id: `${now}-${randomUUID()}`,
      local_actor: writer.id,
      actor_uri: `${origin}/users/r${k}`,
      handle: `@r${k}@127.0.0.1:${ports[k % ports.length]}`,
      inbox: `${origin}/users/r${k}/inbox`,
      shared_inbox: args.shared ? `${origin}/inbox` : null,
      created_at: now,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('remote_followers').values(rows.slice(i, i + 500)).execute();
  await deps.database.close();
}

async function publish(url, bearer, title) {
  const res = await fetch(`${url}/api/blogs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, authorization: bearer },
    body: JSON.stringify({
      title,
      category: 'Personal',
      type: 'written content',
      short_description: 'An evening by the water, sent to every follower.',
      long_description: `## The harbour at dusk\n\n${'The lanterns came on one by one along the harbour wall. '.repeat(40)}\n\n- amber\n- twilight`,
      availability: 'Public',
      photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
    }),
  });
  if (!res.ok) throw new Error(`publishing failed: ${res.status} ${await res.text()}`);
}

/** Polls the sink until every expected Create arrived; resolves to the sink's figures and the time it took. */
function delivered(sink, startedAt, { timeoutMs = 15 * 60_000 } = {}) {
  let finished = false;
  const done = (async () => {
    for (;;) {
      const s = await sink.stats();
      if ((s.byType.Create ?? 0) >= expected && s.instancesWithCreate === instances) {
        finished = true;
        return { ...s, ms: s.lastAt - startedAt };
      }
      if (Date.now() - startedAt > timeoutMs) throw new Error(`only ${s.byType.Create ?? 0} of ${expected} deliveries after ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return { running: () => !finished, done };
}

/** Waits until the sink has heard nothing new for `quietMs`: what arrives late is counted too (a second delivery per inbox would). */
async function settle(sink, quietMs = 3000) {
  let last = -1;
  for (;;) {
    const s = await sink.stats();
    if (s.posts === last) return s;
    last = s.posts;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

async function main() {
  ensureBuild(say);
  say(`uptime: load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const sink = await startSink();
  let app = null;
  let site = null;
  const cleanUp = () => {
    app?.child.kill('SIGKILL');
    sink.child.kill('SIGKILL');
  };
  process.once('exit', cleanUp);
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    say(`seeding ${args.blogs} blogs on ${dialect}, ${followers} followers on ${instances} instances…`);
    site = await freshSite({ blogs: Number(args.blogs), env: { PORT: String(port), PUBLIC_URL: url, FEDERATION_ALLOW_PRIVATE: 'on' } });
    const { env, seeded } = site;
    await addFollowers(env, sink.ports);
    const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    app = await startServerProcess({ env, nodeFlags: [...serverNodeFlags(), ...profile], waitPath: '/', accept: (res) => res.status === 200, intervalMs: 5, quiet: true });
    const [bearer] = await signInWriters(url, [FEDI_WRITER]).then((s) => s.map((x) => x.bearer));

    // 1. Delivery alone.
    const marks = profileDir ? [] : null;
    const cpuBefore = cpuMsOf(app.pid);
    const startedAt = Date.now();
    const aloneFrom = monotonicMs();
    await publish(url, bearer, 'Sent to ten thousand followers');
    const alone = await delivered(sink, startedAt).done;
    marks?.push({ name: 'delivery alone', from: aloneFrom, to: monotonicMs() });
    const settled = await settle(sink);
    const aloneCpuMs = cpuMsOf(app.pid) - cpuBefore;
    const peakRssMb = Math.round(rssOf(app.pid, 'VmHWM'));
    say(`  delivery alone: ${alone.byType.Create} deliveries in ${alone.ms} ms`);

    // 2. The live page scenario without delivery, during it, and after; `--rounds` times on the
    // same site, a new post each round (single runs spread with the machine's speed: medians).
    await sink.setDelay(delayMs);
    const sessions = await signInWriters(url);
    const write = writeStreams({ blogs: seeded.blogs, users: seeded.users, sessions, pairsUsed: [0, 0, 0] });
    const kept = { renderedAt: null };
    const rounds = [];
    for (let round = 1; round <= args.rounds; round++) {
      await sink.reset();
      const live = await livePagesDuring({
        url,
        pid: app.pid,
        publicBlogIds: seeded.publicBlogIds,
        write,
        connections,
        duration,
        // The publish makes the blog pages stale (the lists they show changed): they are kept again
        // before the window opens, as before the windows without delivery, so the window measures
        // delivery beside kept pages, not the publish's renders.
        rewarm: true,
        marks,
        pages: kept,
        start: async () => {
          const at = Date.now();
          await publish(url, bearer, `Sent again while readers read (${round})`);
          return { ...delivered(sink, at), window: sink.window };
        },
      });
      rounds.push({ live, table: livePagesTable(live, `delivery (sink answering in ${delayMs} ms)`) });
      if (args.rounds > 1) say(`  round ${round}: pages during delivery ${(rounds.at(-1).table.ratio * 100).toFixed(0)}% of without`);
    }
    const { live, table: pages } = rounds[0];
    const during = live.result;
    const livePeakRssMb = Math.round(rssOf(app.pid, 'VmHWM'));
    const percent = (x) => `${(x * 100).toFixed(0)}%`;
    const medianRatio = median(rounds.map((r) => r.table.ratio));
    const roundLines =
      rounds.length < 2
        ? []
        : [
            '',
            `${rounds.length} rounds (a new post each; the tables above are the first):`,
            '',
            '| round | without (before) | during delivery | without (after) | during ÷ without | kept answers (before, during, after) | deliveries in the window (most at once) |',
            '|---:|---:|---:|---:|---:|---|---:|',
            ...rounds.map(({ live: l, table: t }, k) => `| ${k + 1} | ${l.alone.rps} | ${l.during.rps} | ${l.after.rps} | ${percent(t.ratio)} | ${[l.alone, l.during, l.after].map((r) => percent(r.hitRatio)).join(', ')} | ${l.result.window.posts} (${l.result.window.maxInFlight}) |`),
            '',
            `median of ${rounds.length} rounds: pages during delivery ${percent(medianRatio)} of without`,
          ];

    const report = [
      `Federation delivery — ${dialect}, ${args.blogs} seeded blogs, ${followers} followers on ${instances} instances (${args.shared ? 'each with a shared inbox' : 'no shared inboxes'}), Node ${process.version}, load ${loadavg()[0].toFixed(2)}`,
      '',
      '| delivery | deliveries | requests to personal inboxes | time to the last | deliveries/s | app CPU ms | app peak RSS MB |',
      '|---|---:|---:|---:|---:|---:|---:|',
      `| alone, sink answering at once | ${settled.byType.Create ?? 0} Create (${expected} expected; most at one instance: ${settled.createsMostAtOneInstance}) | ${settled.personal} | ${(alone.ms / 1000).toFixed(1)} s | ${Math.round(expected / (alone.ms / 1000))} | ${aloneCpuMs} | ${peakRssMb} |`,
      `| during the page bench, sink answering in ${delayMs} ms | ${during.byType.Create ?? 0} Create | ${during.personal} | ${(during.ms / 1000).toFixed(1)} s | ${Math.round(expected / (during.ms / 1000))} | | ${livePeakRssMb} |`,
      '',
      `most deliveries under way at once (as the sink saw them): ${settled.maxInFlight} alone, ${during.window.maxInFlight} in the page bench's window during delivery (${during.window.posts} deliveries in its ${((during.window.closedAt - during.window.openedAt) / 1000).toFixed(1)} s), ${during.maxInFlight} over the whole delivery`,
      `app CPU per delivery, alone: ${(aloneCpuMs / expected).toFixed(1)} ms`,
      `signatures verified on a sample: ${settled.verified} verified, ${settled.unverified} not${settled.verifyErrors.length ? ` (${settled.verifyErrors[0]})` : ''}`,
      `activity types received (delivery alone): ${Object.entries(settled.byType).map(([t, n]) => `${t} ${n}`).join(', ')}`,
      '',
      ...pages.lines,
      ...roundLines,
    ].join('\n');
    console.log(report);
    if (marks) {
      // The windows on the profile's clock (ms; its samples' timestamps are µs of the same clock).
      mkdirSync(profileDir, { recursive: true });
      const lines = marks.map((m) => `${m.name}\t${m.from.toFixed(0)}\t${m.to.toFixed(0)}`);
      writeFileSync(path.join(profileDir, 'windows.tsv'), `${lines.join('\n')}\n`);
      say(`profile windows (monotonic ms): ${path.join(args.profile, 'windows.tsv')}`);
    }
    const results = path.join(root, 'bench/results');
    mkdirSync(results, { recursive: true });
    writeFileSync(path.join(results, `federation-${dialect}.md`), `${report}\n`);
  } finally {
    if (app) await app.stop();
    sink.child.kill('SIGTERM');
    await site?.remove();
  }
}

await main();
