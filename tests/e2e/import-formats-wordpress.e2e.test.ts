import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PICTURES, WXR_THREADED, wordpressXml } from '../support/import-formats';
import { describeFormatJourney } from '../support/import-journey';

const COUNT = 300;

describeFormatJourney('a writer moves her WordPress blog here (its .xml export)', COUNT, {
  name: 'wordpress',
  async archive(images, _pictures, dir) {
    const file = path.join(dir, 'moving.WordPress.2024-11-20.xml');
    await writeFile(file, wordpressXml(images, COUNT).xml);
    return file;
  },
  found: `Found ${COUNT} posts in this WordPress archive. Nothing is written until you import.`,
  // Each published post answers at its dated permalink and its bare slug; the two posts sharing a
  // slug (in the same month) share both, which stay with the first: the reader names the second's
  // bare slug, the writer its permalink.
  report: `${COUNT} posts imported (0 were here already, 0 skipped), ${WXR_THREADED(COUNT) * 3} comments, ${PICTURES} pictures, ${(COUNT - 1) * 2 - 2} old links redirected.`,
  skipped: (images) => [
    'page 50 “About me”: a page, not a post',
    `Moving day 9: image ${images.url}/pictures/gone.jpg: could not be fetched: its server answered 404`,
    'post 1000 “Moving day 0”: comment 100003: marked as spam',
    'Moving day 0: comment by Linus: it was not approved at the source',
    'Moving day 6: old path /2012/01/same-slug/: another post answers that path already',
    'post 1006 “Moving day 6”: old path /same-slug/: post 1005 “Moving day 5” has that path first',
  ],
  oldPath: (n) => `/moving-day-${n}/`,
  pictureRequests: PICTURES + 1,
  threads: true,
  postgres: true,
});
