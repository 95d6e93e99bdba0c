import { writeZip } from '../support/archives';
import { PICTURES, substackZip } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';

const COUNT = 300;

describeFormatJourney('a writer moves her Substack here (its export zip)', COUNT, {
  name: 'substack',
  archive: (images, _pictures, dir) => writeZip(dir, 'moving-substack-export.zip', substackZip(images, COUNT).members),
  found: `Found ${COUNT} posts and 2 subscribers in this substack archive. Nothing is written until you import.`,
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
});
