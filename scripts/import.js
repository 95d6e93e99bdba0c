// `npm run import -- FILE --as EMAIL [--consented] [--site URL]`: imports a Ghost JSON export, a
// Jekyll or Hugo site zip, or an afterglow export into the account named (docs/decisions/072),
// with a progress line, then prints the report: what came, what was skipped and why.
// `--consented`: the operator states the archive's subscribers consented (no confirmation mail).
import { parseArgs } from 'node:util';
import { withDeps } from './with-deps.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { as: { type: 'string' }, consented: { type: 'boolean', default: false }, site: { type: 'string' } },
});
if (positionals.length !== 1 || !values.as) {
  console.error('usage: npm run import -- FILE --as EMAIL [--consented] [--site https://old.example]');
  process.exit(1);
}

await withDeps('import failed: ', async ({ importArchive }, deps) => {
  let last = '';
  const run = await importArchive(deps, { file: positionals[0], as: values.as, consented: values.consented, siteUrl: values.site ?? null }, (r) => {
    const line = `${r.status} ${r.done}/${r.total}${r.total ? ` (${Math.floor((r.done / r.total) * 100)}%)` : ''}`;
    if (line !== last && process.stdout.isTTY) process.stdout.write(`\r${line}   `);
    last = line;
  });
  if (process.stdout.isTTY) process.stdout.write('\n');
  if (run.status === 'failed') throw new Error(run.error ?? 'the import failed');
  const r = run.report;
  console.log(`imported from ${r.source}: ${r.posts.imported} posts (${r.posts.unchanged} already here, ${r.posts.skipped} skipped), ` +
    `${r.comments.imported} comments, ${r.images.stored} images stored (${r.images.reused} reused, ${r.images.missing} missing), ` +
    `${r.legacyPaths} old paths, subscribers: ${r.subscribers.pending} pending, ${r.subscribers.confirmed} confirmed, ${r.subscribers.existing} already here, ${r.subscribers.skipped} left out`);
  console.log('categories:', Object.entries(r.categoryMapping).map(([from, to]) => `${from} → ${to}`).join(', ') || 'none');
  for (const s of r.skipped) console.log(`skipped: ${s.item}: ${s.reason}`);
});
