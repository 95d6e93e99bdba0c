import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

  await db.schema
    .createTable('blogs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) <= 100`))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`length(title) between 1 and 200`))
    .addColumn('category', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`category in ('Personal', 'Travelling & Photography', 'Fashion & Beauty', 'Food & Health', 'Technology', 'Education', 'DIY & Craft Blogs')`,
        ),
    )
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('written content', 'Video', 'Photo', 'Podcast', 'Mini blog')`),
    )
    .addColumn('short_description', 'text', (c) =>
      c.notNull().check(sql`length(short_description) between 1 and 500`),
    )
    .addColumn('long_description', 'text', (c) =>
      c.notNull().check(sql`length(long_description) between 1 and 100000`),
    )
    .addColumn('details', 'text', (c) => c.check(sql`length(details) <= 10000`))
    .addColumn('availability', 'text', (c) =>
      c.notNull().check(sql`availability in ('Public', 'Hidden')`),
    )
    .addColumn('photo', 'text', (c) => c.check(sql`length(photo) <= 2048`))
    .addColumn('likes', 'integer', (c) => c.notNull().defaultTo(0).check(sql`likes >= 0`))
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0).check(sql`views >= 0`))
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('blogs_recent_idx')
    .on('blogs')
    .columns(['availability', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('blogs_category_idx')
    .on('blogs')
    .columns(['availability', 'category', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('blogs_featured_idx')
    .on('blogs')
    .columns(['availability', 'likes desc', 'views desc', 'created_at desc'])
    .execute();
  await db.schema
    .createIndex('blogs_owner_idx')
    .on('blogs')
    .columns(['owner_id', 'created_at desc'])
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('user_photo', 'text')
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('comment_text', 'text', (c) =>
      c.notNull().check(sql`length(comment_text) between 1 and 5000`),
    )
    .addColumn('commented_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('comments_blog_idx')
    .on('comments')
    .columns(['blog_id', 'commented_at'])
    .execute();
  await db.schema.createIndex('comments_user_idx').on('comments').column('user_id').execute();

  await db.schema
    .createTable('likes')
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('likes_pk', ['blog_id', 'user_id'])
    .execute();
  await db.schema.createIndex('likes_user_idx').on('likes').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('wishlist')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('photo', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('like_count', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('wishlist_user_blog_uq', ['user_id', 'blog_id'])
    .execute();
  await db.schema
    .createIndex('wishlist_user_idx')
    .on('wishlist')
    .columns(['user_id', 'created_at desc'])
    .execute();
  await db.schema.createIndex('wishlist_blog_idx').on('wishlist').column('blog_id').execute();

  await db.schema
    .createTable('subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique().check(sql`length(email) <= 254`))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.check(sql`length(name) <= 100`))
    .addColumn('photo', 'text', (c) => c.check(sql`length(photo) <= 2048`))
    .addColumn('uid', 'text')
    .addColumn('last_login_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['profiles', 'subscribers', 'wishlist', 'likes', 'comments', 'blogs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
