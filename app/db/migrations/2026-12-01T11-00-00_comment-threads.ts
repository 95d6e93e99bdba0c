import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Threaded comments (docs/decisions/060):
// - a reply names its `parent_id`; `root_id` is its thread's top-level comment (a top-level
//   comment is its own root) and `depth` its distance from it, so a thread is one index read;
// - a comment's author is a local user or a remote actor (`remote_actors`, filled by federation
//   later), exactly one of the two (a CHECK);
// - `likes` counts `comment_likes` (one per user and comment); `pinned_at` (one per blog, a partial
//   unique index), `hidden_at`/`hidden_by` (the blog's writer hid it); `deleted_at` marks a deleted
//   comment kept as "[deleted]" because replies hang under it.
// SQLite cannot drop NOT NULL or add a CHECK to a table that exists: comments is rebuilt (nothing
// references it yet), with its indexes and triggers made again as they were.
// Freshness (docs/decisions/024): a reply is a comment insert and pin and hide are comment updates,
// which already revise the blog; a like and a remote actor's new name or avatar revise it here.

const COMMENT_COLUMNS = 'id, blog_id, user_id, comment_text, commented_at, removed_at, removed_reason, edited_at, pending_since';

async function createCommentsTable(db: Kysely<any>, name: string) {
  await sql`create table ${sql.raw(name)} (
    id text primary key,
    blog_id text not null references blogs(id) on delete cascade,
    user_id text references "user"(id) on delete cascade,
    remote_actor_id text references remote_actors(id) on delete cascade,
    parent_id text references comments(id) on delete cascade,
    root_id text not null,
    depth integer not null default 0,
    comment_text text not null check (length(comment_text) between 1 and 5000),
    commented_at text not null,
    removed_at text,
    removed_reason text,
    edited_at text,
    pending_since text,
    likes integer not null default 0,
    pinned_at text,
    hidden_at text,
    hidden_by text references "user"(id) on delete set null,
    deleted_at text,
    constraint comments_one_author check ((user_id is null) <> (remote_actor_id is null))
  )`.execute(db);
}

const INDEXES = [
  'create index comments_blog_idx on comments (blog_id, commented_at)',
  'create index comments_user_idx on comments (user_id)',
  'create index comments_pending on comments (pending_since) where pending_since is not null',
  'create index comments_root_idx on comments (root_id, commented_at)',
  'create index comments_parent_idx on comments (parent_id)',
  'create index comments_remote_actor_idx on comments (remote_actor_id) where remote_actor_id is not null',
  'create unique index comments_one_pinned on comments (blog_id) where pinned_at is not null',
];

/**
 * SQLite: `from` takes the place of `table`. Other tables' triggers read comments (a rename revises
 * the blogs a person commented on); the legacy rename leaves them alone instead of refusing while
 * the table is briefly missing, and they read the new table by its name afterwards.
 */
async function renameOver(db: Kysely<any>, from: string, table: string) {
  await sql`drop table ${sql.raw(table)}`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  await sql`alter table ${sql.raw(from)} rename to ${sql.raw(table)}`.execute(db);
  await sql`pragma legacy_alter_table = off`.execute(db);
}

const reviseBlogOfComment = (commentId: string) => `update blogs set revision = revision + 1 where id = (select blog_id from comments where id = ${commentId})`;
const reviseBlogsOfActor = (actorId: string) =>
  `update blogs set revision = revision + 1 where id in (select blog_id from comments where remote_actor_id = ${actorId})`;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('remote_actors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uri', 'text', (c) => c.notNull().unique())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('profile_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  if (pg) {
    await sql`alter table comments alter column user_id drop not null`.execute(db);
    await sql`alter table comments
      add column remote_actor_id text references remote_actors(id) on delete cascade,
      add column parent_id text references comments(id) on delete cascade,
      add column root_id text,
      add column depth integer not null default 0,
      add column likes integer not null default 0,
      add column pinned_at text,
      add column hidden_at text,
      add column hidden_by text references "user"(id) on delete set null,
      add column deleted_at text,
      add constraint comments_one_author check ((user_id is null) <> (remote_actor_id is null))`.execute(db);
    // Filling root_id is an update of every comment: each would revise its blog once more, harmlessly.
    await sql`update comments set root_id = id`.execute(db);
    await sql`alter table comments alter column root_id set not null`.execute(db);
    for (const index of INDEXES.slice(3)) await sql.raw(index).execute(db);
  } else {
    await createCommentsTable(db, 'comments_threaded');
    await sql`insert into comments_threaded (${sql.raw(COMMENT_COLUMNS)}, root_id)
      select ${sql.raw(COMMENT_COLUMNS)}, id from comments`.execute(db);
    await renameOver(db, 'comments_threaded', 'comments');
    for (const index of INDEXES) await sql.raw(index).execute(db);
    // The freshness triggers of 2026-11-26T10-00-00 went with the old table.
    for (const [event, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
      await sql`create trigger ${sql.raw(`comments_${event}_revises_blog`)} after ${sql.raw(event)} on comments
        begin update blogs set revision = revision + 1 where id = ${sql.raw(row)}.blog_id; end`.execute(db);
    }
  }

  await db.schema
    .createTable('comment_likes')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_likes_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_likes_user_idx').on('comment_likes').column('user_id').execute();

  if (pg) {
    await sql`create function comment_likes_revise_blog() returns trigger language plpgsql as $$
      begin ${sql.raw(reviseBlogOfComment("(case when tg_op = 'DELETE' then old.comment_id else new.comment_id end)"))}; return null; end $$`.execute(db);
    await sql`create trigger comment_likes_revise_blog after insert or delete on comment_likes
      for each row execute function comment_likes_revise_blog()`.execute(db);
    await sql`create function remote_actors_revise_blogs() returns trigger language plpgsql as $$
      begin ${sql.raw(reviseBlogsOfActor('new.id'))}; return null; end $$`.execute(db);
    await sql`create trigger remote_actors_revise_blogs after update of handle, name, avatar_url, profile_url on remote_actors
      for each row execute function remote_actors_revise_blogs()`.execute(db);
    return;
  }
  await sql`create trigger comment_likes_insert_revises_blog after insert on comment_likes
    begin ${sql.raw(reviseBlogOfComment('new.comment_id'))}; end`.execute(db);
  await sql`create trigger comment_likes_delete_revises_blog after delete on comment_likes
    begin ${sql.raw(reviseBlogOfComment('old.comment_id'))}; end`.execute(db);
  await sql`create trigger remote_actors_revise_blogs after update of handle, name, avatar_url, profile_url on remote_actors
    begin ${sql.raw(reviseBlogsOfActor('new.id'))}; end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('comment_likes').execute();
  // Replies and remote actors' comments have no place in the flat model.
  await sql`delete from comments where parent_id is not null or user_id is null or deleted_at is not null`.execute(db);
  if (pg) {
    for (const index of INDEXES.slice(3)) await sql.raw(`drop index if exists ${index.split(' ')[index.startsWith('create unique') ? 3 : 2]}`).execute(db);
    await sql`alter table comments drop constraint comments_one_author`.execute(db);
    for (const column of ['remote_actor_id', 'parent_id', 'root_id', 'depth', 'likes', 'pinned_at', 'hidden_at', 'hidden_by', 'deleted_at']) {
      await sql`alter table comments drop column ${sql.raw(column)}`.execute(db);
    }
    await sql`alter table comments alter column user_id set not null`.execute(db);
    await sql`drop trigger if exists remote_actors_revise_blogs on remote_actors`.execute(db);
    for (const fn of ['comment_likes_revise_blog', 'remote_actors_revise_blogs']) await sql`drop function if exists ${sql.raw(fn)}()`.execute(db);
  } else {
    await sql`create table comments_flat (
      id text primary key,
      blog_id text not null references blogs(id) on delete cascade,
      user_id text not null references "user"(id) on delete cascade,
      comment_text text not null check (length(comment_text) between 1 and 5000),
      commented_at text not null,
      removed_at text,
      removed_reason text,
      edited_at text,
      pending_since text
    )`.execute(db);
    await sql`insert into comments_flat select ${sql.raw(COMMENT_COLUMNS)} from comments`.execute(db);
    await renameOver(db, 'comments_flat', 'comments');
    for (const index of INDEXES.slice(0, 3)) await sql.raw(index).execute(db);
    for (const [event, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
      await sql`create trigger ${sql.raw(`comments_${event}_revises_blog`)} after ${sql.raw(event)} on comments
        begin update blogs set revision = revision + 1 where id = ${sql.raw(row)}.blog_id; end`.execute(db);
    }
  }
  await db.schema.dropTable('remote_actors').execute();
}
