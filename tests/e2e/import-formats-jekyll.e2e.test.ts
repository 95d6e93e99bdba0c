import { writeZip } from '../support/archives';
import { IN_ARCHIVE, jekyllZip, PICTURES } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';

const COUNT = 300;

describeFormatJourney('a writer moves her Jekyll site here (the site zipped)', COUNT, {
  name: 'jekyll',
  archive: (images, pictures, dir) => writeZip(dir, 'my-site.zip', jekyllZip(images, pictures, COUNT).members),
  found: `Found ${COUNT} posts in this Markdown archive. Nothing is written until you import.`,
  // Jekyll sites name their categories in lower case.
  mapping: { travel: 'Travelling & Photography', programming: 'Technology', cooking: 'Food & Health' },
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${COUNT * 2} old links redirected.`,
  skipped: () => ['my-site/_posts/2012-01-28-moving-day-9.md: image /assets/img/missing.jpg: not in the archive, and no old address to fetch it from'],
  oldPath: (n) => `/old/${n}/`,
  pictureRequests: PICTURES - IN_ARCHIVE,
});
