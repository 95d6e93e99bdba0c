// `npm start`: check the Node version, build when no build exists (or the sources are newer), then serve.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const [, wantMajor, wantMinor] = /^>=(\d+)\.(\d+)/.exec(engines.node).map(Number);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < wantMajor || (major === wantMajor && minor < wantMinor)) {
  console.error(`Afterglow needs Node.js ${engines.node} (Node 24 LTS recommended); this is ${process.version}.`);
  process.exit(1);
}

const { ensureBuild } = await import('./ensure-build.js');
ensureBuild();
process.chdir(root);
await import(path.join(root, 'server.js'));
