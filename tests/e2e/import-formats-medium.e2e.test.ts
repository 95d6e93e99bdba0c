import { writeZip } from '../support/archives';
import { mediumId, mediumZip, PICTURES } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';

const COUNT = 300;

describeFormatJourney('a writer moves her Medium stories here (its export zip)', COUNT, {
  name: 'medium',
  archive: (images, _pictures, dir) => writeZip(dir, 'medium-export.zip', mediumZip(images, COUNT).members),
  found: `Found ${COUNT} posts in this Medium archive. Nothing is written until you import.`,
  // Medium has no categories: the review says so, and every post gets the one the writer picks.
  mapping: {},
  noCategories: { text: 'Medium exports have no categories: every post becomes Personal. You can choose another for all of them.', choose: 'Education' },
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${(COUNT - 1) * 2} old links redirected.`,
  skipped: (images) => [
    `Moving day 9: image ${images.url}/pictures/gone.jpg: could not be fetched: its server answered 404`,
    '2012-01-01_great-point-2fffffffffff.html “Great point, thanks”: a response to another story, not a post',
  ],
  oldPath: (n) => `/p/${mediumId(n)}`,
  pictureRequests: PICTURES + 1,
});
