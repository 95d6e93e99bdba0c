// `npm run sweep:uploads [-- --grace-hours 24]`: removes uploaded images nothing refers to any more
// (forms abandoned after the upload, photos replaced on edit, leftovers of a store failure), on
// local disk or in S3, whichever is configured. Every running server also does this about once an
// hour; this is for cron or for trying it. Safe while servers run (docs/decisions/018).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { 'grace-hours': { type: 'string', default: '24' } } });
const graceHours = Number(values['grace-hours']);
if (!Number.isFinite(graceHours) || graceHours < 0) {
  console.error('afterglow: --grace-hours must be a number of hours (0 or more)');
  process.exit(1);
}
if (!existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('afterglow: no build found: run `npm run build` first');
  process.exit(1);
}
const { openDeps, sweepUploads } = await import(path.join(root, 'build/server/index.js'));
let deps;
try {
  deps = await openDeps();
  const { scanned, removed } = await sweepUploads(deps, graceHours * 3600 * 1000);
  console.log(`sweep: ${scanned} stored objects, ${removed} unreferenced for over ${graceHours} h removed`);
} catch (error) {
  console.error(`afterglow: sweep failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  await deps?.rateLimits?.close();
  await deps?.database.close();
}
