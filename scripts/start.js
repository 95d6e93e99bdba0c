// `npm start`: build when no build exists (or the sources are newer), then serve.
import path from 'node:path';
import { ensureBuild } from './ensure-build.js';

const root = path.resolve(import.meta.dirname, '..');
ensureBuild();
process.chdir(root);
await import(path.join(root, 'server.js'));
