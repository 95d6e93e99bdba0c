// `npm run export -- [--site | --as EMAIL] OUT.zip`: the export zip (docs/decisions/074) written by
// the operator, without a job, a link or a mail: the whole site (with ghost.json, for Ghost's
// importer), or everything that is one writer's, named by her email. --site is the default.
import { parseArgs } from 'node:util';
import { withDeps } from './with-deps.js';

let parsed;
try {
  parsed = parseArgs({ options: { site: { type: 'boolean' }, as: { type: 'string' } }, allowPositionals: true });
} catch (error) {
  parsed = { error };
}
const out = parsed.positionals?.[0];
if (parsed.error || !out || parsed.positionals.length > 1 || (parsed.values.site && parsed.values.as) || !out.endsWith('.zip')) {
  console.error('usage: npm run export -- [--site | --as EMAIL] OUT.zip');
  process.exit(1);
}
const target = parsed.values.as ? { email: parsed.values.as } : { site: true };
await withDeps('export failed: ', async ({ exportArchive }, deps) => {
  const started = Date.now();
  const summary = await exportArchive(deps, target, out);
  const mb = (summary.bytes / (1024 * 1024)).toFixed(1);
  console.log(`${out}: ${summary.posts} posts, ${summary.images} images, ${summary.comments} comments, ${mb} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
