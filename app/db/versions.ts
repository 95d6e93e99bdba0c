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

/**
 * The versions and, when a blog was named, that blog's revision and its writer's version (null:
 * no such blog). The end of a post shows the writer's other posts: they move her version, not
 * every blog's revision (docs/decisions/093).
 */
export interface PageVersions extends ContentVersions {
  blog: number | null;
  writer: number | null;
}

/** A blog's own revision and its writer's version, as a page of it follows them. */
export interface BlogVersions {
  blog: number;
  writer: number;
}

/** What a read found of a blog: its versions, and the writer whose version it follows. */
export interface FoundBlog extends BlogVersions {
  owner: string;
}
