import { afterAll } from 'vitest';
import { writeZip } from '../support/archives';
import { ghostMembersCsv } from '../support/archives/ghost-members';
import { IN_ARCHIVE, ghostZip, PICTURES } from '../support/import-formats';
import { describeFormatJourney, importListAlone } from '../support/import-journey';
import { tempDirs } from '../support/temp-dirs';

const COUNT = 300;
const dirs = tempDirs();
afterAll(() => dirs.removeAll());

describeFormatJourney('a writer moves her Ghost blog here (its JSON export zipped with content/images and its members CSV)', COUNT, {
  name: 'ghost',
  archive: (images, pictures, dir) => writeZip(dir, 'moving-ghost-export.zip', ghostZip(images, pictures, COUNT).members),
  found: `Found ${COUNT} posts and 3 subscribers in this Ghost archive. Nothing is written until you import.`,
  // Every post answers at /<slug>/; the second of the two sharing a slug finds it taken.
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${COUNT - 1} old links redirected.`,
  // The members Ghost mails come pending, each sent a confirmation; the one it no longer mails stays out.
  subscribers: {
    review: '2 subscribers come as pending: each gets a mail to confirm, and posts only after confirming. 1 stays out: unsubscribed, bounced or deleted at the source.',
    report: 'Subscribers: 2 pending, each sent a mail to confirm; 1 left out, listed below.',
  },
  skipped: () => [
    'Moving day 9: image /content/images/2020/01/missing.jpg: not in the archive, and no old address to fetch it from',
    'Moving day 6: old path /same-slug/: another post answers that path already',
    'subscriber gone@mail.example: unsubscribed at the source',
  ],
  oldPath: (n) => `/moving-day-${n}/`,
  pictureRequests: PICTURES - IN_ARCHIVE,
  async more(run) {
    // Ghost's members CSV uploaded alone, later: one member is here already, one is new, one Ghost no longer mails;
    // then the operator's command line, stating the members consented: confirmed, no mail to confirm.
    await importListAlone(
      run,
      {
        dir: dirs.make('ghost-members-'),
        alone: ['members.2024-11-21.csv', ghostMembersCsv([
          { email: 'reader.one@mail.example', subscribed_to_emails: 'true' },
          { email: 'new.reader@mail.example', name: 'New Reader', subscribed_to_emails: 'true' },
          { email: 'left@mail.example', subscribed_to_emails: 'false' },
        ])],
        consented: ['members-consented.csv', ghostMembersCsv([{ email: 'agreed@mail.example', subscribed_to_emails: 'true' }, { email: 'new.reader@mail.example', subscribed_to_emails: 'true' }])],
        shot: 'import-formats-ghost-members',
      },
      {
        // A list alone has no posts: its own review, no categories, and a report of subscribers only (docs/decisions/095).
        found: 'This Ghost list has 3 subscribers. Nothing is written until you import.',
        review: 'Check who comes, then import.',
        mapping: {},
        noCategories: null,
        subscribers: '2 subscribers come as pending: each gets a mail to confirm, and posts only after confirming. 1 stays out: unsubscribed, bounced or deleted at the source.',
        status: 'Done.',
        report: null,
        reportSubscribers: 'Subscribers: 1 pending, sent a mail to confirm; 1 subscribed here already; 1 left out, listed below.',
        skipped: ['subscriber left@mail.example: unsubscribed at the source'],
      },
      ['imported from ghost: Subscribers: 1 confirmed, their consent stated by the operator; 1 subscribed here already.'],
    );
  },
});
