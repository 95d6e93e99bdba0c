// The runtime the project runs on. The README's two commands must work on the machine's own Node
// (18 or newer), so this file uses nothing newer than Node 18 offers (no import.meta.dirname).
// npm already puts the lockfile's Node package (optionalDependencies: node-<os>-<cpu>) first on
// PATH for every npm script; this covers a script started by hand (`node scripts/start.js`) on an
// older Node, which re-runs itself on that package's binary (docs/decisions/046).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Node versions the server, the build and the tests run on (package.json's `runtime`). */
export function runtimeRange() {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).runtime.node;
}

/** Whether `version` (e.g. "20.20.2") satisfies a `>=MAJOR.MINOR` range. */
export function satisfies(version, range = runtimeRange()) {
  const [, wantMajor, wantMinor] = /^>=(\d+)\.(\d+)/.exec(range).map(Number);
  const [major, minor] = version.split('.').map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/** The Node binary of the installed runtime package for this platform, or null. */
export function bundledNode(platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform;
  const binary = path.join(root, 'node_modules', `node-${os}-${arch}`, 'bin', platform === 'win32' ? 'node.exe' : 'node');
  return existsSync(binary) ? binary : null;
}

/**
 * Returns when this process runs on a Node in the runtime range. Otherwise re-runs the calling
 * script on the bundled Node with the same flags and arguments and exits with its status, or
 * exits with one line naming what is needed when no runtime package fits this machine.
 */
export function ensureRuntime() {
  if (satisfies(process.versions.node)) return;
  const node = bundledNode();
  if (!node) {
    console.error(
      `Afterglow needs Node.js ${runtimeRange()} (Node 24 LTS recommended); this is ${process.version}, ` +
        `and npm installed no Node runtime package for ${process.platform}-${process.arch}. Install Node 24 LTS.`,
    );
    process.exit(1);
  }
  const result = spawnSync(node, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

/**
 * What the server's allocator reads from the environment as its process starts, so no flag can
 * set it (glibc's malloc; other C libraries ignore it): at most two arenas, so memory one thread
 * frees is reused by the others rather than kept in an arena per thread (docs/decisions/087).
 * `npm start` sets it for itself (scripts/start.js); the bench and the cluster start the server
 * with it. A value already in the environment wins.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };

/** The variables of SERVER_ENV that `env` does not set already. */
export function serverEnv(env = process.env) {
  return Object.fromEntries(Object.entries(SERVER_ENV).filter(([name]) => env[name] === undefined));
}
