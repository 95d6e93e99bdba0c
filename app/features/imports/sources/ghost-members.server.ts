/**
 * Ghost's members export (Members → Export, `members.<date>.csv`; docs/decisions/090) as
 * subscribers: one row a member, with the columns id, email, name, note, subscribed_to_emails,
 * complimentary_plan, stripe_customer_id, created_at, deleted_at, labels and tiers. A member who
 * takes no newsletter (`subscribed_to_emails` false) and a deleted one stay out; the plan, Stripe,
 * labels and tiers have nothing here to become.
 */
import type { ArchiveEntries, ImportBundle, ImportSubscriber } from '../import-model.ts';
import { csvFilesWithHeader, csvRows, gatherSubscribers, isoOrNull } from './csv.server.ts';

/** The columns that tell Ghost's members export from any other list of addresses. */
export const isGhostMembersHeader = (columns: string[]) => columns.includes('email') && columns.includes('subscribed_to_emails');

/** The archive's CSV files that are Ghost members exports, in name order. */
export const findGhostMembers = (entries: ArchiveEntries): Promise<string[]> => csvFilesWithHeader(entries, isGhostMembersHeader);

/** Ghost prefixes a value a spreadsheet would take for a formula with an apostrophe: the name is read without it. */
const unescaped = (value: string) => value.replace(/^'(?=[=+\-@\t])/, '');

/** Every member of the given export files, each address once; rows without an address go to `skipped`. */
export async function readGhostMembers(entries: ArchiveEntries, files: string[], skipped: { item: string; reason: string }[]): Promise<ImportSubscriber[]> {
  const list = { subscribers: [] as ImportSubscriber[], skipped, seen: new Set<string>() };
  for (const file of files) {
    gatherSubscribers(csvRows(await entries.read(file), file), file, list, (row) => ({
      name: unescaped((row.name ?? '').trim()) || null,
      // Ghost writes true or false; a member it no longer mails (unsubscribed, or every newsletter left) is false.
      status: (row.deleted_at ?? '').trim() ? 'deleted' : /^false$/i.test((row.subscribed_to_emails ?? '').trim()) ? 'unsubscribed' : 'active',
      createdAt: isoOrNull(row.created_at),
    }));
  }
  return list.subscribers;
}

/** Ghost's members export uploaded alone (or zipped without the site's JSON): subscribers, no posts. */
export async function readGhostMembersExport(entries: ArchiveEntries, files: string[]): Promise<ImportBundle> {
  const skipped: ImportBundle['skipped'] = [];
  return { source: 'ghost', siteUrl: null, authors: [], posts: [], subscribers: await readGhostMembers(entries, files, skipped), skipped };
}
