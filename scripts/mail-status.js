// `npm run mail:status [-- --limit 20]`: what the send queue holds, per message: queued, sent,
// failed and bounced (docs/decisions/023). Safe while servers run; reads only.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { limit: { type: 'string', default: '20' } } });
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1) {
  console.error('afterglow: --limit must be a whole number above 0');
  process.exit(1);
}
if (!existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('afterglow: no build found: run `npm run build` first');
  process.exit(1);
}
const { openDeps, mailStatus } = await import(path.join(root, 'build/server/index.js'));
let deps;
try {
  deps = await openDeps();
  for (const line of await mailStatus(deps, limit)) console.log(line);
} catch (error) {
  console.error(`afterglow: mail status failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  await deps?.rateLimits?.close();
  await deps?.database.close();
}
