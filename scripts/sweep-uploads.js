// `npm run sweep:uploads [-- --grace-hours 24]`: removes uploaded images nothing refers to any more
// (forms abandoned after the upload, photos replaced on edit, leftovers of a store failure), on
// local disk or in S3, whichever is configured. Every running server also does this about once an
// hour; this is for cron or for trying it. Safe while servers run (docs/decisions/018).
import { parseArgs } from 'node:util';
import { withDeps } from './with-deps.js';

const { values } = parseArgs({ options: { 'grace-hours': { type: 'string', default: '24' } } });
const graceHours = Number(values['grace-hours']);
if (!Number.isFinite(graceHours) || graceHours < 0) {
  console.error('afterglow: --grace-hours must be a number of hours (0 or more)');
  process.exit(1);
}
await withDeps('sweep failed: ', async ({ sweepUploads }, deps) => {
  const { scanned, removed } = await sweepUploads(deps, graceHours * 3600 * 1000);
  console.log(`sweep: ${scanned} stored objects, ${removed} unreferenced for over ${graceHours} h removed`);
});
