import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Full-text search over a blog's title, short and long description (docs/product.md,
// docs/decisions/012-full-text-search.md). Both indexes are kept in step by the database
// itself, so every writer (the app, scripts/bench/seed.js, a restore) is indexed.
// Frozen once landed: never import app code here, never edit; add a new migration instead.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // A trigger rather than a generated column: PostgreSQL recomputes stored generated columns
    // on every UPDATE, and likes and views update blogs far more often than their text changes.
    await sql`alter table blogs add column search_vector tsvector`.execute(db);
    await sql`
      create function blogs_search_vector() returns trigger language plpgsql as $$
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
    await sql`update blogs set title = title`.execute(db);
    await sql`create index blogs_search_idx on blogs using gin (search_vector)`.execute(db);
    return;
  }

  // An external-content FTS5 table: the text stays only in blogs; the index follows its rowid.
  await sql`
    create virtual table blogs_fts using fts5(
      title, short_description, long_description,
      content='blogs', content_rowid='rowid',
      tokenize='porter unicode61 remove_diacritics 2'
    )`.execute(db);
  const columns = sql.raw('title, short_description, long_description');
  const oldValues = sql.raw('old.title, old.short_description, old.long_description');
  const newValues = sql.raw('new.title, new.short_description, new.long_description');
  await sql`
    create trigger blogs_fts_insert after insert on blogs begin
      insert into blogs_fts(rowid, ${columns}) values (new.rowid, ${newValues});
    end`.execute(db);
  await sql`
    create trigger blogs_fts_delete after delete on blogs begin
      insert into blogs_fts(blogs_fts, rowid, ${columns}) values ('delete', old.rowid, ${oldValues});
    end`.execute(db);
  // Only a change of the indexed text re-indexes: likes and views leave the index alone.
  await sql`
    create trigger blogs_fts_update after update of title, short_description, long_description on blogs begin
      insert into blogs_fts(blogs_fts, rowid, ${columns}) values ('delete', old.rowid, ${oldValues});
      insert into blogs_fts(rowid, ${columns}) values (new.rowid, ${newValues});
    end`.execute(db);
  await sql`insert into blogs_fts(blogs_fts) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists blogs_search_vector_trg on blogs`.execute(db);
    await sql`drop function if exists blogs_search_vector()`.execute(db);
    await sql`alter table blogs drop column if exists search_vector`.execute(db);
    return;
  }
  for (const trigger of ['blogs_fts_insert', 'blogs_fts_delete', 'blogs_fts_update']) {
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  }
  await sql`drop table if exists blogs_fts`.execute(db);
}
