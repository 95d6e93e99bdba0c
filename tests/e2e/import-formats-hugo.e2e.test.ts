import { writeZip } from '../support/archives';
import { hugoZip, IN_ARCHIVE, PICTURES } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';

const COUNT = 300;

describeFormatJourney('a writer moves her Hugo site here (the site zipped)', COUNT, {
  name: 'hugo',
  archive: (images, pictures, dir) => writeZip(dir, 'hugo-site.zip', hugoZip(images, pictures, COUNT).members),
  found: `Found ${COUNT} posts in this Markdown archive. Nothing is written until you import.`,
  // Each post answers at /posts/<slug>/ and its alias; the two sharing a slug share the first.
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${COUNT * 2 - 1} old links redirected.`,
  skipped: () => ['Moving day 6: old path /posts/same-slug/: another post answers that path already', 'content/posts/2012/moving-day-9.md: image /images/missing.jpg: not in the archive, and no old address to fetch it from'],
  oldPath: (n) => `/archive/${n}/`,
  pictureRequests: PICTURES - IN_ARCHIVE,
});
