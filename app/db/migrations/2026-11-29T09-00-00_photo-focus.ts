import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Photos keep their subject (docs/decisions/040-photo-focus.md):
// - image_focus: the focal point the pipeline found in an uploaded image (sharp's attention
//   strategy), in percent of its width and height, keyed by the image's id (its stored names are
//   `{id}-{width}.webp`). Written once at upload; an image never changes.
// - blogs.photo_focus: the writer's choice, one of nine positions; null is "Automatic".
// - blogs.photo_focus_x / photo_focus_y: the blog photo's computed point, taken from image_focus
//   when the photo is set, so lists read it without a join; null for photos from before this
//   migration or from elsewhere (shown as before).
// What the page and the lists show changes with them: triggers of their own move the blog's
// revision and the `lists` version, leaving the existing triggers alone (decision 024).
const POSITIONS = ['top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right'];
const percent = (column: string) => sql`${sql.ref(column)} between 0 and 100`;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('image_focus')
    .addColumn('image_id', 'text', (c) => c.primaryKey())
    .addColumn('focus_x', 'integer', (c) => c.notNull().check(percent('focus_x')))
    .addColumn('focus_y', 'integer', (c) => c.notNull().check(percent('focus_y')))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  const positions = sql.join(POSITIONS.map((p) => sql.lit(p)));
  await db.schema.alterTable('blogs').addColumn('photo_focus', 'text', (c) => c.check(sql`photo_focus in (${positions})`)).execute();
  await db.schema.alterTable('blogs').addColumn('photo_focus_x', 'integer', (c) => c.check(percent('photo_focus_x'))).execute();
  await db.schema.alterTable('blogs').addColumn('photo_focus_y', 'integer', (c) => c.check(percent('photo_focus_y'))).execute();

  if (pg) {
    await sql`create trigger blogs_focus_revises before update of photo_focus, photo_focus_x, photo_focus_y on blogs
      for each row execute function blogs_revise()`.execute(db);
    await sql`create constraint trigger blogs_focus_bumps_lists after update of photo_focus, photo_focus_x, photo_focus_y on blogs
      deferrable initially deferred for each row execute function bump_version_at_commit('lists')`.execute(db);
  } else {
    await sql`create trigger blogs_focus_revises after update of photo_focus, photo_focus_x, photo_focus_y on blogs
      begin update blogs set revision = revision + 1 where id = new.id; end`.execute(db);
    await sql`create trigger blogs_focus_bumps_lists after update of photo_focus, photo_focus_x, photo_focus_y on blogs
      begin update content_version_stripes set version = version + 1 where scope = 'lists' and stripe = 0; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['blogs_focus_revises', 'blogs_focus_bumps_lists']) await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(pg ? ' on blogs' : '')}`.execute(db);
  if (pg) await sql`set constraints all immediate`.execute(db);
  for (const column of ['photo_focus_y', 'photo_focus_x', 'photo_focus']) await db.schema.alterTable('blogs').dropColumn(column).execute();
  await db.schema.dropTable('image_focus').execute();
}
