// `npm start`: build when no build exists (or the sources are newer), then serve.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'build/server/index.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(built) ||
  ['app', 'server', 'public'].some((dir) => existsSync(path.join(root, dir)) && newestMtime(path.join(root, dir)) > statSync(built).mtimeMs);

if (stale) {
  console.log('afterglow: building (first start or sources changed)…');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.js')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.chdir(root);
await import(path.join(root, 'server.js'));
