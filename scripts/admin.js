// `npm run admin -- grant EMAIL` / `npm run admin -- revoke EMAIL`: the operator names the site's
// admins (docs/decisions/028-moderation.md). Admins then grant and revoke moderators on
// /moderation. Each change is written to the audit log with the operator as its actor.
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const [command, email] = process.argv.slice(2);
if (!['grant', 'revoke'].includes(command) || !email) {
  console.error('usage: npm run admin -- grant|revoke EMAIL');
  process.exit(1);
}
if (!existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('afterglow: no build found: run `npm run build` first');
  process.exit(1);
}
const { openDeps, setAdmin } = await import(path.join(root, 'build/server/index.js'));
let deps;
try {
  deps = await openDeps();
  const changed = await setAdmin(deps, email, command === 'grant');
  if (command === 'grant') console.log(changed ? `${email} is now an admin` : `${email} was already an admin`);
  else console.log(changed ? `${email} is no longer an admin` : `${email} was not an admin`);
} catch (error) {
  console.error(`afterglow: ${error.message}`);
  process.exitCode = 1;
} finally {
  await deps?.rateLimits?.close();
  await deps?.database.close();
}
