// The production build, made when there is none or when the sources are newer than it, so no
// script (start, bench, cluster, lighthouse, scan) measures or serves yesterday's code.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const BUILT_SERVER = path.join(root, 'build/server/index.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    // Tests are not part of the build: changing one must not force a rebuild.
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIsStale() {
  if (!existsSync(BUILT_SERVER)) return true;
  const builtAt = statSync(BUILT_SERVER).mtimeMs;
  return ['app', 'server', 'public'].some((dir) => existsSync(path.join(root, dir)) && newestMtime(path.join(root, dir)) > builtAt);
}

/** Builds when needed; exits the process when the build fails. */
export function ensureBuild(say = (line) => console.log(line)) {
  if (!buildIsStale()) return;
  say('afterglow: building (no build yet, or the sources changed)…');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.js')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * The V8 flags `npm start` runs the server with (package.json's start script is their one
 * home), so the benchmark and the cluster measure the server as it is shipped.
 */
export function serverNodeFlags() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return pkg.scripts.start.match(/--[\w-]+(?:=\S+)?/g) ?? [];
}


// The allocator's environment lives with the runtime check, which `npm start` reads before any newer syntax.
export { SERVER_ENV, serverEnv } from './runtime.js';
