// `node scripts/bench/writer-insert.js`: what one post's insert costs a writer who already has
// many (docs/decisions/093). For each size, a fresh database (SQLite; PostgreSQL with
// DATABASE_URL, in a scratch database of its own) gets one writer with that many posts, then
// `--inserts` more are inserted one statement at a time, and the median and quartiles of their
// times are printed with the load. `--rule revision` first puts back the trigger decision 061
// had (every other post of the writer revised: `update blogs set revision = revision + 1 where
// owner_id = new.owner_id and id <> new.id`), to compare with the writer's one version.
// Options: --posts 10,2000 (sizes), --inserts 31, --rule version|revision. Needs `npm run build`.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { scratchPostgres } from '../../tests/support/processes.js';
import { BUILT_SERVER, ensureBuild } from '../ensure-build.js';

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '10,2000' },
    inserts: { type: 'string', default: '31' },
    rule: { type: 'string', default: 'version' },
  },
});
if (!['version', 'revision'].includes(args.rule)) throw new Error('--rule is version or revision');
const sizes = args.posts.split(',').map(Number);
const inserts = Number(args.inserts);

/** The insert trigger decision 061's rule made, as the generator wrote it before decision 093. */
const REVISION_RULE = {
  sqlite: [
    'DROP TRIGGER IF EXISTS fresh_blogs_insert_writer_owner_id',
    'CREATE TRIGGER fresh_blogs_insert_writer_owner_id AFTER INSERT ON "blogs" BEGIN update blogs set revision = revision + 1 where owner_id = new.owner_id and id <> new.id; END',
  ],
  postgres: [
    "CREATE OR REPLACE FUNCTION fresh_blogs_writer_owner_id() RETURNS trigger LANGUAGE plpgsql AS $$ declare r record; begin if tg_op = 'DELETE' then r := old; else r := new; end if; update blogs set revision = revision + 1 where owner_id = r.owner_id and id <> r.id; return null; end $$",
  ],
};

// About the seeded posts' sizes (scripts/bench/seed.js): a revised row is written whole.
const SHORT = 'An evening by the harbour, the light going amber over the water. '.repeat(3);
const LONG = `## Twilight\n\n${'The lanterns came on one by one along the river while the market packed away. '.repeat(30)}`;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(size) {
  const scratch = process.env.DATABASE_URL ? await scratchPostgres(process.env.DATABASE_URL, 'afterglow_bench') : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-bench-'));
  const { openDeps } = await import(BUILT_SERVER);
  const deps = await openDeps({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  try {
    const { db } = deps.database;
    const auth = await deps.auth.$context;
    const writer = (await auth.internalAdapter.createUser({ email: 'prolific@bench.afterglow.test', name: 'Prolific', emailVerified: false })).id;
    const now = Date.now();
    const post = (n) => {
      const at = new Date(now - (size - n) * 60_000).toISOString();
      return {
        id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`, owner_id: writer, title: `Post ${n}`, category: 'Personal', type: 'Video',
        short_description: SHORT, long_description: LONG, details: null, availability: 'Public', photo: null,
        created_at: at, updated_at: at,
      };
    };
    for (let start = 0; start < size; start += 500) {
      const rows = Array.from({ length: Math.min(500, size - start) }, (_, i) => post(start + i));
      await db.transaction().execute((trx) => trx.insertInto('blogs').values(rows).execute());
    }
    if (args.rule === 'revision') for (const statement of REVISION_RULE[scratch ? 'postgres' : 'sqlite']) await sql.raw(statement).execute(db);
    const times = [];
    for (let i = 0; i < inserts; i++) {
      const started = performance.now();
      await db.insertInto('blogs').values(post(size + i)).execute();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const ms = (value) => value.toFixed(2);
    console.log(
      `${scratch ? 'postgres' : 'sqlite'}, rule ${args.rule}, writer with ${size} posts: insert median ${ms(quantile(times, 0.5))} ms ` +
        `(quartiles ${ms(quantile(times, 0.25))}–${ms(quantile(times, 0.75))} ms, ${inserts} inserts), load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
  } finally {
    await deps.database.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await ensureBuild();
for (const size of sizes) await measure(size);
