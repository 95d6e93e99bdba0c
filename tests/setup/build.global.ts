import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Browser tests run against the production build. `npm test` builds first; running the e2e
// project alone builds here when there is no build yet.
export default function setup() {
  if (existsSync('build/server/index.js') && process.env.AFTERGLOW_SKIP_BUILD !== '0') return;
  // Vitest runs with NODE_ENV=test, which a child build would inherit and then compile as a
  // development build (the Markdown worker, among others, is looked for as TypeScript).
  const result = spawnSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error('build failed');
}
