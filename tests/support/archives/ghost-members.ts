/**
 * Ghost's members export as Members → Export writes it (`members.<date>.csv`): its columns in its
 * order, `true`/`false` for the newsletter, labels and tiers by name, comma-joined, and a value a
 * spreadsheet would take for a formula prefixed with an apostrophe. `knownMembers` holds one
 * member of each kind a test checks.
 */
import { csvText } from './substack.ts';

export const GHOST_MEMBER_COLUMNS = ['id', 'email', 'name', 'note', 'subscribed_to_emails', 'complimentary_plan', 'stripe_customer_id', 'created_at', 'deleted_at', 'labels', 'tiers'];

export type GhostMemberRow = Partial<Record<(typeof GHOST_MEMBER_COLUMNS)[number], string>>;

export const ghostMembersCsv = (rows: GhostMemberRow[]) => csvText(GHOST_MEMBER_COLUMNS, rows as Record<string, string>[]);

export function knownMembers(): GhostMemberRow[] {
  return [
    { id: '64a1', email: 'Reader.One@Old.Example', name: 'Reader One', subscribed_to_emails: 'true', created_at: '2021-03-04T05:06:07.000Z', labels: 'Import 2021,VIP', tiers: 'Free' },
    { id: '64a2', email: 'left@old.example', name: 'Left Long Ago', subscribed_to_emails: 'false', created_at: '2021-03-05T00:00:00.000Z' },
    { id: '64a3', email: 'patron@old.example', name: 'Pat Ron', note: 'Early supporter', subscribed_to_emails: 'true', complimentary_plan: 'true', stripe_customer_id: 'cus_12345', created_at: '2022-01-01T00:00:00.000Z', tiers: 'Gold,Silver' },
    { id: '64a4', email: 'formula@old.example', name: "'=1+2", subscribed_to_emails: 'true', created_at: '2022-02-02T00:00:00.000Z' },
    { id: '64a5', email: 'gone@old.example', name: 'Gone', subscribed_to_emails: 'true', created_at: '2022-03-03T00:00:00.000Z', deleted_at: '2023-01-01T00:00:00.000Z' },
    { id: '64a6', email: 'not-an-address', name: 'Typo', subscribed_to_emails: 'true', created_at: '2022-04-04T00:00:00.000Z' },
    { id: '64a7', email: 'reader.one@old.example', name: 'Reader One again', subscribed_to_emails: 'false', created_at: '2022-05-05T00:00:00.000Z' },
  ];
}
