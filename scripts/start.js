// `npm start`: run on the project's runtime, with the allocator's environment, build when no
// build exists (or the sources are newer), then serve.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntime, serverEnv } from './runtime.js';

// glibc reads MALLOC_ARENA_MAX once, as a process starts: this process becomes itself again
// with it set (the same pid, flags and arguments; docs/decisions/087). A Node without
// process.execve (before 22.15, or Windows) goes on without it; ensureRuntime's Node comes back here.
const missing = serverEnv();
if (Object.keys(missing).length > 0 && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...missing });
}
ensureRuntime();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { ensureBuild } = await import('./ensure-build.js');
ensureBuild();
process.chdir(root);
await import(path.join(root, 'server.js'));
