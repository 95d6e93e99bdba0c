import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Freshness per thing shown (docs/decisions/024). One global `content` version emptied
// every cached page on any like or comment anywhere. Now:
// - `blogs.revision` moves when that blog changes (any column but views), when one of its
//   comments is added, changed or removed, or when its author or a commenter changes the name or
//   photo they show. A blog page and its JSON are kept while their blog's revision stands.
// - the `lists` scope of content_version_stripes moves when something a list shows changes: a
//   blog added or removed, or its listed fields (not its like, comment or view counts, which
//   lists show up to 30 s old), or a person's shown name or photo.
// The `content` and `views` scopes go. Triggers, as before, so no writer can forget one; the
// lists bump is the at-commit, striped one of 2026-11-25 on PostgreSQL.
const STRIPES = 16;
// The blog's own copies of its author (email, name) went in 2026-11-26T09-30-00: the author is
// read through owner_id, and a rename revises the blog through the person triggers below.
const REVISED_COLUMNS =
  'owner_id, title, category, type, short_description, long_description, details, availability, photo, likes, comments_count, created_at, updated_at';
const LISTED_COLUMNS =
  'owner_id, title, category, type, short_description, long_description, details, availability, photo, created_at, updated_at';
const OLD_CONTENT_TRIGGERS: [name: string, table: string, event: string][] = [
  ['blogs_insert_bumps_content', 'blogs', 'INSERT'],
  ['blogs_delete_bumps_content', 'blogs', 'DELETE'],
  ['blogs_update_bumps_content', 'blogs', `UPDATE OF ${REVISED_COLUMNS}`],
  ['comments_insert_bumps_content', 'comments', 'INSERT'],
  ['comments_delete_bumps_content', 'comments', 'DELETE'],
  ['comments_update_bumps_content', 'comments', 'UPDATE'],
  // 2026-11-26T09-30-00's: a shown name or photo changed (now the person and lists triggers).
  ['profiles_identity_bumps_content', 'profiles', 'UPDATE OF name, photo'],
  ['user_identity_bumps_content', '"user"', 'UPDATE OF name, image'],
];
const LISTS_TRIGGERS: [name: string, table: string, event: string][] = [
  ['blogs_insert_bumps_lists', 'blogs', 'INSERT'],
  ['blogs_delete_bumps_lists', 'blogs', 'DELETE'],
  ['blogs_update_bumps_lists', 'blogs', `UPDATE OF ${LISTED_COLUMNS}`],
  ['user_update_bumps_lists', '"user"', 'UPDATE OF name, image'],
  ['profiles_insert_bumps_lists', 'profiles', 'INSERT'],
  ['profiles_update_bumps_lists', 'profiles', 'UPDATE OF name, photo'],
];
/** Whose shown identity changed, as the trigger sees the row: the blogs to revise are theirs and those they commented on. */
const PERSON_TRIGGERS: [name: string, table: string, event: string, person: string][] = [
  ['user_update_revises_blogs', '"user"', 'UPDATE OF name, image', 'new.id'],
  ['profiles_insert_revises_blogs', 'profiles', 'INSERT', 'new.user_id'],
  ['profiles_update_revises_blogs', 'profiles', 'UPDATE OF name, photo', 'new.user_id'],
];
const reviseBlogsOf = (person: string) =>
  `update blogs set revision = revision + 1 where owner_id = ${person} or id in (select blog_id from comments where user_id = ${person})`;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`alter table blogs add column revision integer not null default 0`.execute(db);
  for (const [name, table] of OLD_CONTENT_TRIGGERS) await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(pg ? ` on ${table}` : '')}`.execute(db);
  await db.deleteFrom('content_version_stripes').where('scope', 'in', ['content', 'views']).execute();
  for (let stripe = 0; stripe < (pg ? STRIPES : 1); stripe++) {
    await db.insertInto('content_version_stripes').values({ scope: 'lists', stripe, version: 0 }).execute();
  }

  if (pg) {
    // Set on the row being written: no second statement, no extra lock.
    await sql`create function blogs_revise() returns trigger language plpgsql as $$
      begin new.revision := old.revision + 1; return new; end $$`.execute(db);
    await sql`create trigger blogs_update_revises before update of ${sql.raw(REVISED_COLUMNS)} on blogs
      for each row execute function blogs_revise()`.execute(db);
    // A comment's blog row is the one the comment's transaction updates next anyway (its count).
    await sql`create function comments_revise_blog() returns trigger language plpgsql as $$
      begin
        update blogs set revision = revision + 1 where id = (case when tg_op = 'DELETE' then old.blog_id else new.blog_id end);
        return null;
      end $$`.execute(db);
    await sql`create trigger comments_revise_blog after insert or update or delete on comments
      for each row execute function comments_revise_blog()`.execute(db);
    // The person's id column is the trigger's argument: "user".id or profiles.user_id.
    await sql`create function person_revises_blogs() returns trigger language plpgsql as $$
      declare person text := to_jsonb(new) ->> tg_argv[0];
      begin ${sql.raw(reviseBlogsOf('person'))}; return null; end $$`.execute(db);
    for (const [name, table, event, person] of PERSON_TRIGGERS) {
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
        for each row execute function person_revises_blogs(${sql.lit(person.replace('new.', ''))})`.execute(db);
    }
    for (const [name, table, event] of LISTS_TRIGGERS) {
      await sql`create constraint trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
        deferrable initially deferred for each row execute function bump_version_at_commit('lists')`.execute(db);
    }
    return;
  }

  // SQLite has row triggers only and one writer; recursive triggers are off, and `revision` is
  // not in any trigger's column list, so revising a row fires nothing further.
  await sql`create trigger blogs_update_revises after update of ${sql.raw(REVISED_COLUMNS)} on blogs
    begin update blogs set revision = revision + 1 where id = new.id; end`.execute(db);
  await sql`create trigger comments_insert_revises_blog after insert on comments
    begin update blogs set revision = revision + 1 where id = new.blog_id; end`.execute(db);
  await sql`create trigger comments_update_revises_blog after update on comments
    begin update blogs set revision = revision + 1 where id = new.blog_id; end`.execute(db);
  await sql`create trigger comments_delete_revises_blog after delete on comments
    begin update blogs set revision = revision + 1 where id = old.blog_id; end`.execute(db);
  for (const [name, table, event, person] of PERSON_TRIGGERS) {
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
      begin ${sql.raw(reviseBlogsOf(person))}; end`.execute(db);
  }
  for (const [name, table, event] of LISTS_TRIGGERS) {
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
      begin update content_version_stripes set version = version + 1 where scope = 'lists' and stripe = 0; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const on = (table: string) => sql.raw(pg ? ` on ${table}` : '');
  for (const [name, table] of [...LISTS_TRIGGERS, ...PERSON_TRIGGERS]) await sql`drop trigger if exists ${sql.raw(name)}${on(table)}`.execute(db);
  for (const name of ['comments_insert_revises_blog', 'comments_update_revises_blog', 'comments_delete_revises_blog', 'comments_revise_blog']) {
    await sql`drop trigger if exists ${sql.raw(name)}${on('comments')}`.execute(db);
  }
  await sql`drop trigger if exists blogs_update_revises${on('blogs')}`.execute(db);
  if (pg) for (const fn of ['blogs_revise', 'comments_revise_blog', 'person_revises_blogs']) await sql`drop function if exists ${sql.raw(fn)}()`.execute(db);
  await db.deleteFrom('content_version_stripes').where('scope', '=', 'lists').execute();
  for (const scope of ['content', 'views']) {
    for (let stripe = 0; stripe < (pg ? STRIPES : 1); stripe++) await db.insertInto('content_version_stripes').values({ scope, stripe, version: 0 }).execute();
  }
  for (const [name, table, event] of OLD_CONTENT_TRIGGERS) {
    if (pg) {
      await sql`create constraint trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
        deferrable initially deferred for each row execute function bump_version_at_commit('content')`.execute(db);
    } else {
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
        begin update content_version_stripes set version = version + 1 where scope = 'content' and stripe = 0; end`.execute(db);
    }
  }
  await sql`alter table blogs drop column revision`.execute(db);
}
