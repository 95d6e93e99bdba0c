// `npm run federation:status`: whether the site federates, what its queue holds (deliveries,
// inbox work), and what federation keeps (docs/decisions/068). Safe while servers run; reads only.
import { withDeps } from './with-deps.js';

await withDeps('federation status failed: ', async ({ federationStatus }, deps) => {
  for (const line of await federationStatus(deps)) console.log(line);
});
