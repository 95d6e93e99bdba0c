// The opening and closing every operator script shares: the build's server code, the configured
// database (migrated), and a clean close whatever happens. A failure prints one line and exits 1.
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Runs `use(server, deps)`; `failure` prefixes the error line ('sweep failed: '). */
export async function withDeps(failure, use) {
  const entry = path.join(root, 'build/server/index.js');
  if (!existsSync(entry)) {
    console.error('afterglow: no build found: run `npm run build` first');
    process.exit(1);
  }
  const server = await import(entry);
  let deps;
  try {
    deps = await server.openDeps();
    await use(server, deps);
  } catch (error) {
    console.error(`afterglow: ${failure}${error.message}`);
    process.exitCode = 1;
  } finally {
    await deps?.rateLimits?.close();
    await deps?.database.close();
  }
}
