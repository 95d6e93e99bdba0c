// `npm start`: run on the project's runtime, build when no build exists (or the sources are
// newer), then serve.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntime } from './runtime.js';

ensureRuntime();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { ensureBuild } = await import('./ensure-build.js');
ensureBuild();
process.chdir(root);
await import(path.join(root, 'server.js'));
