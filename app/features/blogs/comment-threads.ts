import type { CommentRow } from './blogs.presenter';

/**
 * Who may see a comment (docs/decisions/060): one a moderator removed or one waiting for a
 * moderator, its author alone (docs/decisions/028, 029); one the writer hid, its author and the
 * writer. A comment nobody else may see takes its replies with it: they answer something gone.
 */
export function commentShownTo(row: Pick<CommentRow, 'user_id' | 'removed_at' | 'pending_since' | 'hidden_at'>, viewerId: string | null, writerId: string): boolean {
  const own = viewerId !== null && row.user_id === viewerId;
  if (row.removed_at || row.pending_since) return own;
  if (row.hidden_at) return own || viewerId === writerId;
  return true;
}

/**
 * The rows a viewer is shown, in reading order: the pinned comment first, then top-level comments
 * oldest first, each followed depth-first by its replies (oldest first). A deleted comment stays,
 * as "[deleted]", only while a reply under it is shown. With `from`, only that comment's
 * sub-thread, and only when every comment above it may be seen.
 */
export function arrangeThreads(rows: CommentRow[], viewerId: string | null, writerId: string, from?: string): CommentRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const children = new Map<string | null, CommentRow[]>();
  for (const row of rows) {
    // A reply whose parent was not read (beyond the reply limit) cannot be placed: left out.
    if (row.parent_id !== null && !byId.has(row.parent_id)) continue;
    const list = children.get(row.parent_id) ?? [];
    list.push(row);
    children.set(row.parent_id, list);
  }
  const shown = (row: CommentRow) => row.deleted_at !== null || commentShownTo(row, viewerId, writerId);
  const walk = (row: CommentRow): CommentRow[] => {
    if (!shown(row)) return [];
    const below = (children.get(row.id) ?? []).flatMap(walk);
    if (row.deleted_at && below.length === 0) return [];
    return [row, ...below];
  };
  if (from !== undefined) {
    const start = byId.get(from);
    if (!start) return [];
    for (let up = start.parent_id === null ? undefined : byId.get(start.parent_id); up; up = up.parent_id === null ? undefined : byId.get(up.parent_id)) {
      if (!shown(up)) return [];
    }
    return walk(start);
  }
  const tops = [...(children.get(null) ?? [])].sort((a, b) => Number(b.pinned_at !== null) - Number(a.pinned_at !== null) || a.commented_at.localeCompare(b.commented_at) || a.id.localeCompare(b.id));
  return tops.flatMap(walk);
}
