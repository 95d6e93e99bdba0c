import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Emails only to their owner (docs/decisions/022-emails-only-to-their-owner.md):
// - A blog and a comment show their author through the user's id: the copies of the author's
//   name, photo and email on blogs and comments go. The shown name and photo are read from the
//   profile (or the account under it) each time, so a rename shows everywhere at once, and a
//   photo is no longer copied into every comment.
// - The shown name and photo now come from profiles and better-auth's user table, so changing
//   them changes what cached pages show: they bump `content` too (they already bumped
//   `sessions`). A profile row is created with its account's own values, so only updates move
//   what is shown.
// - better-auth's user table gets the same limits as the profiles: a name of at most 100
//   characters, a photo URL of at most 2,048. PostgreSQL gets CHECK constraints. SQLite cannot
//   add a CHECK to a table that exists without rebuilding it, and rebuilding the table
//   better-auth owns (sessions, accounts, blogs … point at it) is not safe, so there the same
//   rule is a pair of BEFORE triggers that abort the statement.
const NAME_MAX = 100;
const PHOTO_MAX = 2048;

/** blogs_update_bumps_content named the copied columns; it is made again without them. */
const BLOG_CONTENT_COLUMNS = ['owner_id', 'title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo', 'likes', 'comments_count', 'created_at', 'updated_at'];
const OLD_BLOG_CONTENT_COLUMNS = ['owner_id', 'email', 'name', ...BLOG_CONTENT_COLUMNS.slice(1)];

const IDENTITY_TRIGGERS = [
  { name: 'profiles_identity_bumps_content', table: 'profiles', event: 'UPDATE OF name, photo' },
  { name: 'user_identity_bumps_content', table: '"user"', event: 'UPDATE OF name, image' },
];

async function createBumpTrigger(db: Kysely<any>, pg: boolean, name: string, table: string, event: string) {
  if (pg) {
    await sql`create constraint trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
      deferrable initially deferred for each row execute function bump_version_at_commit('content')`.execute(db);
  } else {
    await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
      begin update content_version_stripes set version = version + 1 where scope = 'content' and stripe = 0; end`.execute(db);
  }
}

/**
 * PostgreSQL: the version bumps of rows changed so far run now, not at commit. A table with bumps
 * still pending cannot be altered in the same transaction.
 */
async function settleBumps(db: Kysely<any>, pg: boolean) {
  if (pg) await sql`set constraints all immediate`.execute(db);
}

async function dropTrigger(db: Kysely<any>, pg: boolean, name: string, table: string) {
  await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(pg ? ` on ${table}` : '')}`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  // Data first: values the old endpoints let in (a 900 KB photo, a `javascript:` one, a name of
  // any length) would fail the new limits.
  await sql`update "user" set name = substr(name, 1, ${sql.lit(NAME_MAX)}) where length(name) > ${sql.lit(NAME_MAX)}`.execute(db);
  await sql`update "user" set image = null where image is not null and (
      length(image) > ${sql.lit(PHOTO_MAX)}
      or not (lower(image) like 'https://%' or lower(image) like 'http://%' or (substr(image, 1, 1) = '/' and substr(image, 1, 2) not in ('//', '/\\')))
    )`.execute(db);
  await settleBumps(db, pg);

  if (pg) {
    await sql`alter table "user" add constraint user_name_length check (length(name) <= ${sql.lit(NAME_MAX)})`.execute(db);
    await sql`alter table "user" add constraint user_image_length check (length(image) <= ${sql.lit(PHOTO_MAX)})`.execute(db);
  } else {
    for (const event of ['insert', 'update of name, image']) {
      const suffix = event === 'insert' ? 'insert' : 'update';
      await sql`create trigger ${sql.raw(`user_limits_${suffix}`)} before ${sql.raw(event)} on "user"
        when length(new.name) > ${sql.lit(NAME_MAX)} or length(new.image) > ${sql.lit(PHOTO_MAX)}
        begin select raise(abort, 'CHECK constraint failed: user name or image too long'); end`.execute(db);
    }
  }

  await dropTrigger(db, pg, 'blogs_update_bumps_content', 'blogs');
  for (const column of ['email', 'name']) await db.schema.alterTable('blogs').dropColumn(column).execute();
  await createBumpTrigger(db, pg, 'blogs_update_bumps_content', 'blogs', `UPDATE OF ${BLOG_CONTENT_COLUMNS.join(', ')}`);
  for (const column of ['user_name', 'user_photo', 'user_email']) await db.schema.alterTable('comments').dropColumn(column).execute();

  for (const t of IDENTITY_TRIGGERS) await createBumpTrigger(db, pg, t.name, t.table, t.event);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of IDENTITY_TRIGGERS) await dropTrigger(db, pg, t.name, t.table);

  // The copies come back filled with what is shown now.
  const shownName = (id: string) => sql`coalesce((select p.name from profiles p where p.user_id = ${sql.ref(id)}), (select u.name from "user" u where u.id = ${sql.ref(id)}), 'User')`;
  const shownPhoto = (id: string) => sql`coalesce((select p.photo from profiles p where p.user_id = ${sql.ref(id)}), (select u.image from "user" u where u.id = ${sql.ref(id)}))`;
  const email = (id: string) => sql`(select u.email from "user" u where u.id = ${sql.ref(id)})`;
  await db.schema.alterTable('comments').addColumn('user_name', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('comments').addColumn('user_photo', 'text').execute();
  await db.schema.alterTable('comments').addColumn('user_email', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`update comments set user_name = ${shownName('comments.user_id')}, user_photo = ${shownPhoto('comments.user_id')}, user_email = ${email('comments.user_id')}`.execute(db);
  await settleBumps(db, pg);

  await dropTrigger(db, pg, 'blogs_update_bumps_content', 'blogs');
  await db.schema.alterTable('blogs').addColumn('email', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('blogs').addColumn('name', 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`update blogs set email = ${email('blogs.owner_id')}, name = ${shownName('blogs.owner_id')}`.execute(db);
  await settleBumps(db, pg);
  await createBumpTrigger(db, pg, 'blogs_update_bumps_content', 'blogs', `UPDATE OF ${OLD_BLOG_CONTENT_COLUMNS.join(', ')}`);

  if (pg) {
    await sql`alter table "user" drop constraint if exists user_name_length`.execute(db);
    await sql`alter table "user" drop constraint if exists user_image_length`.execute(db);
  } else {
    await sql`drop trigger if exists user_limits_insert`.execute(db);
    await sql`drop trigger if exists user_limits_update`.execute(db);
  }
}
