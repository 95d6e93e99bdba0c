// `npm test`: lint (the layering rule), build once (the browser tests run the production
// server), then every test.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const step = (args) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

step(['node_modules/eslint/bin/eslint.js', '.']);
step(['scripts/build.js']);
step(['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)]);
