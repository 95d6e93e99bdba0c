// `npm run import -- FILE --as EMAIL [--consented] [--site URL]`: imports a Ghost JSON export (zipped
// with its images and members CSV, or alone), Ghost's members CSV alone, a WordPress, Substack or
// Medium export, a Jekyll or Hugo site zip, or an afterglow export into the account named
// (docs/decisions/072, 073, 090), with a progress line, then prints the report: what came, what
// was skipped and why. Subscribers come pending, each mailed a confirmation;
// `--consented`: the operator states the archive's subscribers consented (no confirmation mail).
// `--whole-site` (the account named is an admin): each of the archive's authors goes to an account
// (docs/decisions/083): `--author "SOURCE=EMAIL"` (SOURCE: her id, email or name in the archive;
// repeatable) names it, else her earlier mapping or the account of her email; any other author
// gets a new account mailed a link to set a password with `--create-accounts`, else her posts stay out.
import { parseArgs } from 'node:util';
import { withDeps } from './with-deps.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    as: { type: 'string' },
    consented: { type: 'boolean', default: false },
    site: { type: 'string' },
    'whole-site': { type: 'boolean', default: false },
    author: { type: 'string', multiple: true, default: [] },
    'create-accounts': { type: 'boolean', default: false },
  },
});
const authors = {};
for (const pair of values.author) {
  const at = pair.lastIndexOf('=');
  if (at <= 0) {
    console.error(`--author takes SOURCE=EMAIL, not ${pair}`);
    process.exit(1);
  }
  authors[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
}
const wholeSite = values['whole-site'] || values.author.length > 0 || values['create-accounts'];
if (positionals.length !== 1 || !values.as) {
  console.error('usage: npm run import -- FILE --as EMAIL [--consented] [--site https://old.example] [--whole-site [--author "SOURCE=EMAIL"]... [--create-accounts]]');
  process.exit(1);
}

await withDeps('import failed: ', async ({ importArchive, listReport }, deps) => {
  let last = '';
  const input = { file: positionals[0], as: values.as, consented: values.consented, siteUrl: values.site ?? null, site: wholeSite ? { authors, createAccounts: values['create-accounts'] } : undefined };
  const run = await importArchive(deps, input, (r) => {
    const line = `${r.status} ${r.done}/${r.total}${r.total ? ` (${Math.floor((r.done / r.total) * 100)}%)` : ''}`;
    if (line !== last && process.stdout.isTTY) process.stdout.write(`\r${line}   `);
    last = line;
  });
  if (process.stdout.isTTY) process.stdout.write('\n');
  if (run.status === 'failed') throw new Error(run.error ?? 'the import failed');
  const r = run.report;
  // A list alone is reported as the screen reports it: its subscribers and what did not come (docs/decisions/095).
  const list = listReport(run);
  if (list) {
    console.log(`imported from ${r.source}: ${list}`);
    for (const s of r.skipped) console.log(`skipped: ${s.item}: ${s.reason}`);
    return;
  }
  console.log(`imported from ${r.source}: ${r.posts.imported} posts (${r.posts.unchanged} already here, ${r.posts.skipped} skipped), ` +
    `${r.comments.imported} comments, ${r.images.stored} images stored (${r.images.reused} reused, ${r.images.missing} missing), ` +
    `${r.legacyPaths} old paths, subscribers: ${r.subscribers.pending} pending, ${r.subscribers.confirmed} confirmed, ${r.subscribers.existing} already here, ${r.subscribers.skipped} left out`);
  if (r.remoteFollows) console.log(`accounts on other servers: ${r.remoteFollows.requested} followed again, ${r.remoteFollows.existing} already followed, ${r.remoteFollows.skipped} left out`);
  console.log('categories:', Object.entries(r.categoryMapping).map(([from, to]) => `${from || '(posts without a category)'} → ${to}`).join(', ') || 'none');
  for (const a of r.authors ?? []) {
    console.log(`author ${a.name}: ${a.posts} posts ${a.outcome === 'skipped' ? 'left out' : `to ${a.outcome === 'new' ? 'the new account' : 'the account'} ${a.account} ${a.outcome === 'new' ? '(mailed a link to set a password)' : ''}`}`.trimEnd());
  }
  for (const s of r.skipped) console.log(`skipped: ${s.item}: ${s.reason}`);
});
