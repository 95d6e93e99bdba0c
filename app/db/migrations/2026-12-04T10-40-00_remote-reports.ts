import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Reports from other servers (docs/decisions/080): a `Flag` about one of our posts, comments or
// writers lands in the moderation queue as a report whose reporter is a remote actor
// (`remote_actor_uri`) instead of a local user; exactly one of the two is set (a CHECK). One open
// report per remote actor and target, as per local reporter (a second partial unique index).
// SQLite cannot drop NOT NULL or add a CHECK to a table that exists: reports is rebuilt (nothing
// references it), with its indexes made again as they were.

const INDEXES = [
  `create unique index reports_one_open on reports (reporter_id, target_type, target_id) where status = 'open'`,
  'create index reports_status_created on reports (status, created_at)',
  'create index reports_target on reports (target_type, target_id)',
];
const REMOTE_INDEX = `create unique index reports_one_open_remote on reports (remote_actor_uri, target_type, target_id) where status = 'open' and remote_actor_uri is not null`;
const COLUMNS = 'id, reporter_id, target_type, target_id, reason, details, snapshot, status, created_at, resolved_at, resolved_by';

/** SQLite: the reports table as it is with reports from elsewhere (`remote`), or as it was before. */
async function createReportsTable(db: Kysely<any>, name: string, remote: boolean) {
  await sql`create table ${sql.raw(name)} (
    id text primary key,
    reporter_id text ${sql.raw(remote ? '' : 'not null')} references "user"(id) on delete cascade,
    ${sql.raw(remote ? 'remote_actor_uri text,' : '')}
    target_type text not null check (target_type in ('blog', 'comment', 'user')),
    target_id text not null,
    reason text not null,
    details text,
    snapshot text not null,
    status text not null default 'open' check (status in ('open', 'dismissed', 'resolved')),
    created_at text not null,
    resolved_at text,
    resolved_by text
    ${sql.raw(remote ? ', constraint reports_one_reporter check ((reporter_id is null) <> (remote_actor_uri is null))' : '')}
  )`.execute(db);
}

/** SQLite: reports rebuilt in the shape `createReportsTable` makes, its rows and indexes kept. */
async function rebuildReports(db: Kysely<any>, remote: boolean) {
  await createReportsTable(db, 'reports_rebuilt', remote);
  await sql`insert into reports_rebuilt (${sql.raw(COLUMNS)}) select ${sql.raw(COLUMNS)} from reports`.execute(db);
  await sql`drop table reports`.execute(db);
  await sql`alter table reports_rebuilt rename to reports`.execute(db);
  for (const index of INDEXES) await sql.raw(index).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table reports alter column reporter_id drop not null`.execute(db);
    await sql`alter table reports add column remote_actor_uri text, add constraint reports_one_reporter check ((reporter_id is null) <> (remote_actor_uri is null))`.execute(db);
  } else {
    await rebuildReports(db, true);
  }
  await sql.raw(REMOTE_INDEX).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists reports_one_open_remote`.execute(db);
  await sql`delete from reports where reporter_id is null`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table reports drop constraint reports_one_reporter, drop column remote_actor_uri`.execute(db);
    await sql`alter table reports alter column reporter_id set not null`.execute(db);
  } else {
    // A column a CHECK names cannot be dropped in SQLite: the table is rebuilt as it was.
    await rebuildReports(db, false);
  }
}
