// `npm run admin -- grant EMAIL` / `npm run admin -- revoke EMAIL`: the operator names the site's
// admins (docs/decisions/028-moderation.md). Admins then grant and revoke moderators on
// /moderation. Each change is written to the audit log with the operator as its actor.
import { withDeps } from './with-deps.js';

const [command, email] = process.argv.slice(2);
if (!['grant', 'revoke'].includes(command) || !email) {
  console.error('usage: npm run admin -- grant|revoke EMAIL');
  process.exit(1);
}
await withDeps('', async ({ setAdmin }, deps) => {
  const changed = await setAdmin(deps, email, command === 'grant');
  if (command === 'grant') console.log(changed ? `${email} is now an admin` : `${email} was already an admin`);
  else console.log(changed ? `${email} is no longer an admin` : `${email} was not an admin`);
});
