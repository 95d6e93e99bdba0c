import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// The end of a post shows its writer's other posts (docs/decisions/061): the one before, the one
// after and her newest. A kept blog page follows its own `revision` alone (decision 024), so a
// writer's other blogs are revised when one of her posts comes, goes, or changes what the end of
// a post shows of it (its title, excerpt, photo, date, visibility, or its owner). Likes, comments
// and views change none of those, so they revise no other blog. Revising sets only `revision`,
// which no trigger's column list names, so nothing fires further.
const SHOWN_COLUMNS =
  'owner_id, title, category, short_description, long_description, availability, photo, photo_focus, photo_focus_x, photo_focus_y, created_at, removed_at, pending_since';
const reviseOthersOf = (owner: string, id: string) => `update blogs set revision = revision + 1 where owner_id = ${owner} and id <> ${id}`;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    await sql`create function blogs_revise_siblings() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then ${sql.raw(reviseOthersOf('old.owner_id', 'old.id'))}; end if;
        if tg_op = 'INSERT' then ${sql.raw(reviseOthersOf('new.owner_id', 'new.id'))};
        elsif tg_op = 'UPDATE' then
          if new.owner_id is distinct from old.owner_id then ${sql.raw(reviseOthersOf('new.owner_id', 'new.id'))}; end if;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger blogs_revise_siblings after insert or delete or update of ${sql.raw(SHOWN_COLUMNS)} on blogs
      for each row execute function blogs_revise_siblings()`.execute(db);
    return;
  }
  await sql`create trigger blogs_insert_revises_siblings after insert on blogs
    begin ${sql.raw(reviseOthersOf('new.owner_id', 'new.id'))}; end`.execute(db);
  await sql`create trigger blogs_delete_revises_siblings after delete on blogs
    begin ${sql.raw(reviseOthersOf('old.owner_id', 'old.id'))}; end`.execute(db);
  await sql`create trigger blogs_update_revises_siblings after update of ${sql.raw(SHOWN_COLUMNS)} on blogs
    begin update blogs set revision = revision + 1 where owner_id in (old.owner_id, new.owner_id) and id <> new.id; end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    await sql`drop trigger if exists blogs_revise_siblings on blogs`.execute(db);
    await sql`drop function if exists blogs_revise_siblings()`.execute(db);
    return;
  }
  for (const name of ['blogs_insert_revises_siblings', 'blogs_delete_revises_siblings', 'blogs_update_revises_siblings']) await sql`drop trigger if exists ${sql.raw(name)}`.execute(db);
}
