import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Tags, readable addresses and the writer's choice of public view counts (docs/decisions/069):
// - tags: one row per tag, `key` its lower-case form (unique), `name` as first written;
// - blog_tags: a post's tags, in the writer's order (`position`);
// - blogs.tags_text: the post's tag names joined by spaces, kept with blog_tags in one
//   transaction, so cards, search and the page read them without a join;
// - blogs.slug: the address's readable part, made from the title (existing posts get one here);
// - profiles.show_views: 0 when the writer keeps her view counts to herself (1, the default, as before);
// - full-text search covers tags_text (FTS5 gains a column; PostgreSQL's vector weighs it like a summary).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique().check(sql`length(key) between 1 and 40`))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 40`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('blog_tags')
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('blog_tags_pk', ['blog_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('blog_tags_tag_idx').on('blog_tags').columns(['tag_id', 'blog_id']).execute();
  await db.schema.alterTable('blogs').addColumn('tags_text', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('blogs').addColumn('slug', 'text', (c) => c.notNull().defaultTo('post').check(sql`length(slug) between 1 and 80`)).execute();
  await db.schema.alterTable('profiles').addColumn('show_views', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  // Existing posts' slugs: the same shape the app makes (lower-case words joined by hyphens).
  let after = '';
  for (;;) {
    const rows: { id: string; title: string }[] = await db.selectFrom('blogs').select(['id', 'title']).where('id', '>', after).orderBy('id').limit(500).execute();
    if (rows.length === 0) break;
    for (const row of rows) await db.updateTable('blogs').set({ slug: slugOf(row.title) }).where('id', '=', row.id).execute();
    after = rows[rows.length - 1]!.id;
  }

  if (postgres) {
    await sql`
      create or replace function blogs_search_vector() returns trigger language plpgsql as $$
      begin
        new.search_vector :=
          setweight(to_tsvector('english', new.title), 'A') ||
          setweight(to_tsvector('english', new.short_description || ' ' || new.tags_text), 'B') ||
          setweight(to_tsvector('english', new.long_description), 'C');
        return new;
      end
      $$`.execute(db);
    await sql`drop trigger if exists blogs_search_vector_trg on blogs`.execute(db);
    await sql`
      create trigger blogs_search_vector_trg
      before insert or update of title, short_description, long_description, tags_text on blogs
      for each row execute function blogs_search_vector()`.execute(db);
    return;
  }
  await recreateFts(db, ['title', 'short_description', 'long_description', 'tags_text']);
}

export async function down(db: Kysely<any>): Promise<void> {
  // The generated freshness triggers name the columns going; the next migration run makes them again.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ name: string; table: string }>`select t.tgname as name, c.relname as "table" from pg_trigger t
      join pg_class c on c.oid = t.tgrelid where t.tgname like 'fresh\\_%' and not t.tgisinternal and c.relname in ('blogs', 'profiles')`.execute(db);
    for (const t of rows) await sql`drop trigger if exists ${sql.raw(t.name)} on ${sql.raw(`"${t.table}"`)}`.execute(db);
  } else {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and name like 'fresh\\_%' escape '\\' and tbl_name in ('blogs', 'profiles')`.execute(db);
    for (const t of rows) await sql`drop trigger if exists ${sql.raw(t.name)}`.execute(db);
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists blogs_search_vector_trg on blogs`.execute(db);
    await sql`
      create or replace function blogs_search_vector() returns trigger language plpgsql as $$
      begin
        new.search_vector :=
          setweight(to_tsvector('english', new.title), 'A') ||
          setweight(to_tsvector('english', new.short_description), 'B') ||
          setweight(to_tsvector('english', new.long_description), 'C');
        return new;
      end
      $$`.execute(db);
    await sql`
      create trigger blogs_search_vector_trg
      before insert or update of title, short_description, long_description on blogs
      for each row execute function blogs_search_vector()`.execute(db);
  } else {
    await recreateFts(db, ['title', 'short_description', 'long_description']);
  }
  await db.schema.alterTable('profiles').dropColumn('show_views').execute();
  await db.schema.alterTable('blogs').dropColumn('slug').execute();
  await db.schema.alterTable('blogs').dropColumn('tags_text').execute();
  await db.schema.dropTable('blog_tags').execute();
  await db.schema.dropTable('tags').execute();
}

function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'post';
}

/** SQLite's external-content FTS5 index over `columns` of blogs, with the triggers that keep it. */
async function recreateFts(db: Kysely<any>, columns: string[]): Promise<void> {
  for (const trigger of ['blogs_fts_insert', 'blogs_fts_delete', 'blogs_fts_update']) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  await sql`drop table if exists blogs_fts`.execute(db);
  const list = sql.raw(columns.join(', '));
  const oldValues = sql.raw(columns.map((c) => `old.${c}`).join(', '));
  const newValues = sql.raw(columns.map((c) => `new.${c}`).join(', '));
  await sql`
    create virtual table blogs_fts using fts5(
      ${list},
      content='blogs', content_rowid='rowid',
      tokenize='porter unicode61 remove_diacritics 2'
    )`.execute(db);
  await sql`
    create trigger blogs_fts_insert after insert on blogs begin
      insert into blogs_fts(rowid, ${list}) values (new.rowid, ${newValues});
    end`.execute(db);
  await sql`
    create trigger blogs_fts_delete after delete on blogs begin
      insert into blogs_fts(blogs_fts, rowid, ${list}) values ('delete', old.rowid, ${oldValues});
    end`.execute(db);
  await sql`
    create trigger blogs_fts_update after update of ${list} on blogs begin
      insert into blogs_fts(blogs_fts, rowid, ${list}) values ('delete', old.rowid, ${oldValues});
      insert into blogs_fts(rowid, ${list}) values (new.rowid, ${newValues});
    end`.execute(db);
  await sql`insert into blogs_fts(blogs_fts) values ('rebuild')`.execute(db);
}
