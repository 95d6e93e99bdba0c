import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { syncFreshness } from './freshness.server';
import { syncViewerWriteTriggers } from './viewer-writes.server';

// Bundled by Vite (and Vitest) at build time, so the production server needs no migrations
// folder on disk and both dialects run exactly the same files.
const modules = import.meta.glob<Migration>('./migrations/*.ts', { eager: true });

class BundledMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const [path, module] of Object.entries(modules)) {
      const name = path.replace(/^.*\//, '').replace(/\.ts$/, '');
      migrations[name] = module;
    }
    return migrations;
  }
}

export interface MigrationReport {
  applied: string[];
  /** Whether the generated freshness triggers had to be made again (docs/decisions/055). */
  freshnessRebuilt: boolean;
}

export async function migrateToLatest(db: Kysely<any>): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: new BundledMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration ${failed ?? '(unknown)'} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // The freshness triggers follow the rules of freshness.ts, not the migrations: made after the
  // last migration, so every column a rule names exists, and made again whenever the rules change.
  const freshnessRebuilt = await syncFreshness(db);
  // PostgreSQL: the writes a signed-in reader's kept page may show notify too (decision 076).
  await syncViewerWriteTriggers(db);
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName), freshnessRebuilt };
}
