// The shapes of the versions alone, so the listener (which kysely.server.ts makes) and the reads
// (which take kysely.server.ts's handle) share them without importing each other.

/**
 * Where what pages show stands (decision 024, superseding the `content` and `views` scopes of
 * 019): triggers bump `lists` when something a list shows changes (a blog added, removed, or its
 * listed fields) and `sessions` when a session or a user's shown details change; a scope's
 * version is the sum of its stripes (decision 020). Each blog's own `revision` moves with what
 * its page shows. Which row changes move which is the table of rules in `freshness.ts`
 * (docs/decisions/055).
 * Shared by every instance on the same database, so a cache keyed by them is right on all.
 */
export interface ContentVersions {
  lists: number;
  /** Sessions ended or changed, or a user's name, email or photo changed. */
  sessions: number;
}

/** The versions and, when a blog was named, that blog's revision (null: no such blog). */
export interface PageVersions extends ContentVersions {
  blog: number | null;
}
