import { afterAll } from 'vitest';
import { writeZip } from '../support/archives';
import { substackListCsv } from '../support/archives/substack';
import { PICTURES, substackZip } from '../support/import-formats';
import { describeFormatJourney, importListAlone } from '../support/import-journey';
import { tempDirs } from '../support/temp-dirs';

const COUNT = 300;
const dirs = tempDirs();
afterAll(() => dirs.removeAll());

describeFormatJourney('a writer moves her Substack here (its export zip)', COUNT, {
  name: 'substack',
  archive: (images, _pictures, dir) => writeZip(dir, 'moving-substack-export.zip', substackZip(images, COUNT).members),
  found: `Found ${COUNT} posts and 2 subscribers in this Substack archive. Nothing is written until you import.`,
  // Each published post answers at /p/<slug>; the shared slug stays with the first, the report names the other.
  // Substack has no categories: the review says so, and every post gets the one the writer picks.
  mapping: {},
  noCategories: { text: 'Substack exports have no categories: every post becomes Personal. You can choose another for all of them.', choose: 'Technology' },
  subscribers: {
    review: '1 subscriber comes as pending: a mail asks them to confirm, and posts go to them only after they do. 1 stays out: unsubscribed, bounced or deleted at the source.',
    report: 'Subscribers: 1 pending, sent a mail to confirm; 1 left out, listed below.',
  },
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${COUNT - 2} old links redirected.`,
  skipped: (images) => [
    `Moving day 9: image ${images.url}/pictures/gone.jpg: could not be fetched: its server answered 404`,
    'post 399999999.open-thread “Open thread”: a discussion thread, not a post',
    'subscriber gone@mail.example: unsubscribed at the source',
    'post 300000006.same-slug “Moving day 6”: old path /p/same-slug: post 300000005.same-slug “Moving day 5” has that path first',
  ],
  oldPath: (n) => `/p/moving-day-${n}`,
  pictureRequests: PICTURES + 1,
  async more(run) {
    // The subscriber list uploaded alone, later: one reader is here already, one is new, one Substack no longer mails;
    // then the operator's command line, stating the subscribers consented: confirmed, no mail to confirm.
    await importListAlone(
      run,
      {
        dir: dirs.make('substack-list-'),
        alone: ['email_list.moving.csv', substackListCsv([
          { email: 'reader.one@mail.example', email_disabled: 'false' },
          { email: 'new.reader@mail.example', email_disabled: 'false' },
          { email: 'left@mail.example', email_disabled: 'true' },
        ])],
        consented: ['email_list.consented.csv', substackListCsv([{ email: 'agreed@mail.example', email_disabled: 'false' }, { email: 'new.reader@mail.example', email_disabled: 'false' }])],
        shot: 'import-formats-substack-list',
      },
      {
        // A list alone has no posts: its own review, no categories, and a report of subscribers only (docs/decisions/095).
        found: 'This Substack list has 3 subscribers. Nothing is written until you import.',
        review: 'Check who comes, then import.',
        mapping: {},
        noCategories: null,
        // The review cannot know yet that one is here already: she counts among those that come.
        subscribers: '2 subscribers come as pending: each gets a mail to confirm, and posts only after confirming. 1 stays out: unsubscribed, bounced or deleted at the source.',
        status: 'Done.',
        report: null,
        reportSubscribers: 'Subscribers: 1 pending, sent a mail to confirm; 1 subscribed here already; 1 left out, listed below.',
        skipped: ['subscriber left@mail.example: unsubscribed at the source'],
      },
      ['imported from substack: Subscribers: 1 confirmed, their consent stated by the operator; 1 subscribed here already.'],
    );
  },
});
