import { writeZip } from '../support/archives';
import { PICTURES, substackZip } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';

const COUNT = 300;

describeFormatJourney('a writer moves her Substack here (its export zip)', COUNT, {
  name: 'substack',
  archive: (images, _pictures, dir) => writeZip(dir, 'moving-substack-export.zip', substackZip(images, COUNT).members),
  found: `Found ${COUNT} posts and 2 subscribers in this substack archive. Nothing is written until you import.`,
  // Each published post answers at /p/<slug>; the shared slug stays with the first.
  // Substack has no categories: every post becomes Personal, and there is nothing to map.
  mapping: {},
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${COUNT - 2} old links redirected.`,
  skipped: (images) => [
    `Moving day 9: image ${images.url}/pictures/gone.jpg: could not be fetched: its server answered 404`,
    'post 399999999.open-thread “Open thread”: a discussion thread, not a post',
    'subscriber gone@mail.example: unsubscribed at the source',
  ],
  oldPath: (n) => `/p/moving-day-${n}`,
  pictureRequests: PICTURES + 1,
});
