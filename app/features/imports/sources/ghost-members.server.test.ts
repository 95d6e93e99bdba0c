import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeZip } from '#test/archives';
import { archiveEntries } from '#test/archives/entries';
import { ghostMembersCsv, knownMembers } from '#test/archives/ghost-members';
import { csvText } from '#test/archives/substack';
import { ghostArchive } from '#test/import-archives';
import { tempDirs } from '#test/temp-dirs';
import { openArchive } from '../archive.server';
import { readBundle } from '../imports-readers.server';
import { findGhostMembers, readGhostMembers } from './ghost-members.server';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

/** What the known members become (docs/decisions/090). */
const KNOWN = [
  { email: 'reader.one@old.example', name: 'Reader One', status: 'active', createdAt: '2021-03-04T05:06:07.000Z' },
  { email: 'left@old.example', name: 'Left Long Ago', status: 'unsubscribed', createdAt: '2021-03-05T00:00:00.000Z' },
  { email: 'patron@old.example', name: 'Pat Ron', status: 'active', createdAt: '2022-01-01T00:00:00.000Z' },
  { email: 'formula@old.example', name: '=1+2', status: 'active', createdAt: '2022-02-02T00:00:00.000Z' },
  { email: 'gone@old.example', name: 'Gone', status: 'deleted', createdAt: '2022-03-03T00:00:00.000Z' },
];
const TYPO = { item: 'subscriber “not-an-address” in members.2024-11-20.csv', reason: 'not an email address' };

describe('Ghost’s members export', () => {
  it('reads each member once, by its address in lower case: a member Ghost does not mail (subscribed_to_emails false) or deleted stays out, a row without an address is reported', async () => {
    const entries = archiveEntries(new Map([['members.2024-11-20.csv', ghostMembersCsv(knownMembers())]]));
    const skipped: { item: string; reason: string }[] = [];
    expect(await findGhostMembers(entries)).toEqual(['members.2024-11-20.csv']);
    // Plans, Stripe customers, labels and tiers have nothing here to become: the paying member comes like any other.
    expect(await readGhostMembers(entries, ['members.2024-11-20.csv'], skipped)).toEqual(KNOWN);
    expect(skipped).toEqual([TYPO]);
  });

  it('takes a member without the newsletter column’s value as subscribed, and reads a byte-order mark and quoted names', async () => {
    const csv = `\uFEFF${csvText(['email', 'name', 'subscribed_to_emails'], [{ email: 'a@old.example', name: 'Smith, Ann', subscribed_to_emails: '' }, { email: 'b@old.example', name: '"Bo"', subscribed_to_emails: 'FALSE' }])}`;
    const entries = archiveEntries(new Map([['members.csv', csv]]));
    expect(await readGhostMembers(entries, await findGhostMembers(entries), [])).toEqual([
      { email: 'a@old.example', name: 'Smith, Ann', status: 'active', createdAt: null },
      { email: 'b@old.example', name: '"Bo"', status: 'unsubscribed', createdAt: null },
    ]);
  });

  it('is recognised uploaded alone (a .csv file), with no posts; any other CSV alone is refused', async () => {
    const dir = dirs.make('members-');
    const file = path.join(dir, 'members.2024-11-20.csv');
    await writeFile(file, ghostMembersCsv(knownMembers()));
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    await entries.close();
    expect(bundle).toEqual({ source: 'ghost', siteUrl: null, authors: [], posts: [], subscribers: KNOWN, skipped: [TYPO] });

    const other = path.join(dir, 'contacts.csv');
    await writeFile(other, csvText(['email', 'name'], [{ email: 'a@old.example', name: 'A' }]));
    const otherEntries = await openArchive(other);
    await expect(readBundle(otherEntries)).rejects.toThrow(/none of the formats this site imports/);
    await otherEntries.close();
  });

  it('comes along in a zip beside the Ghost JSON export and its images', async () => {
    const archive = await ghostArchive(4);
    const file = await writeZip(dirs.make('ghost-members-'), 'ghost.zip', [...archive.members, { name: 'members.2024-11-20.csv', body: ghostMembersCsv(knownMembers()) }]);
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    await entries.close();
    expect(bundle.source).toBe('ghost');
    expect(bundle.posts).toHaveLength(4);
    expect(bundle.subscribers).toEqual(KNOWN);
    expect(bundle.skipped).toContainEqual(TYPO);
  });
});
