// `npm run db:migrate`: apply pending migrations (SQLite in DATA_DIR, or DATABASE_URL) and exit.
// The server does this at every start too; this is for operators who migrate before rolling out.
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'build/server/index.js'))) {
  console.error('afterglow: no build found: run `npm run build` first');
  process.exit(1);
}
const { migrate } = await import(path.join(root, 'build/server/index.js'));
try {
  const applied = await migrate();
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
} catch (error) {
  console.error(`afterglow: ${error.message}`);
  process.exit(1);
}
