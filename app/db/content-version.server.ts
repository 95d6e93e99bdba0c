import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * Where what pages show stands: the database's triggers bump `content` on any blog or comment
 * change, `views` on view counts and `sessions` when a session or a user's shown details change
 * (migration 2026-11-22T18-00-00_content-versions).
 * Shared by every instance on the same database, so a cache keyed by them is right on all.
 */
export interface ContentVersions {
  content: number;
  views: number;
  /** Sessions ended or changed, or a user's name, email or photo changed. */
  sessions: number;
}

export async function readContentVersions(db: Kysely<Database>): Promise<ContentVersions> {
  const rows = await db.selectFrom('content_versions').select(['scope', 'version']).execute();
  const versions: ContentVersions = { content: 0, views: 0, sessions: 0 };
  for (const row of rows) versions[row.scope] = Number(row.version);
  return versions;
}
