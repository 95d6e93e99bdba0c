// `npm run build`: React Router's production build, then brotli and gzip twins of every text
// asset so the server sends them without compressing per request (static files never change).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|html)$/;

const result = spawnSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'], {
  cwd: root,
  stdio: ['ignore', process.env.AFTERGLOW_QUIET_BUILD ? 'ignore' : 'inherit', 'inherit'],
});
if (result.status !== 0) process.exit(result.status ?? 1);

const clientDir = path.join(root, 'build/client');
let count = 0;
for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  if (statSync(file).size < 1024) continue;
  const body = readFileSync(file);
  writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  count++;
}
if (!process.env.AFTERGLOW_QUIET_BUILD) console.log(`precompressed ${count} files (br, gz)`);
