import { IN_ARCHIVE, ghostZip, PICTURES } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';
import { writeZip } from '../support/archives';

const COUNT = 300;

describeFormatJourney('a writer moves her Ghost blog here (its JSON export zipped with content/images)', COUNT, {
  name: 'ghost',
  archive: (images, pictures, dir) => writeZip(dir, 'moving-ghost-export.zip', ghostZip(images, pictures, COUNT).members),
  found: `Found ${COUNT} posts in this ghost archive. Nothing is written until you import.`,
  // Every post answers at /<slug>/; the second of the two sharing a slug finds it taken.
  report: `${COUNT} posts imported (0 were here already, 0 skipped), 0 comments, ${PICTURES} pictures, ${COUNT - 1} old links redirected.`,
  skipped: () => [
    'Moving day 9: image /content/images/2020/01/missing.jpg: not in the archive, and no old address to fetch it from',
    'Moving day 6: old path /same-slug/: another post answers that path already',
  ],
  oldPath: (n) => `/moving-day-${n}/`,
  pictureRequests: PICTURES - IN_ARCHIVE,
});
