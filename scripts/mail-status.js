// `npm run mail:status [-- --limit 20]`: what the send queue holds, per message: queued, sent,
// failed and bounced (docs/decisions/023). Safe while servers run; reads only.
import { parseArgs } from 'node:util';
import { withDeps } from './with-deps.js';

const { values } = parseArgs({ options: { limit: { type: 'string', default: '20' } } });
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1) {
  console.error('afterglow: --limit must be a whole number above 0');
  process.exit(1);
}
await withDeps('mail status failed: ', async ({ mailStatus }, deps) => {
  for (const line of await mailStatus(deps, limit)) console.log(line);
});
