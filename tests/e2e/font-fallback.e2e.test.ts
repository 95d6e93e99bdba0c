import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { openBrowser, useBrowsers, VIEWPORTS } from '../support/browser';
import { seedBlogs } from '../support/home-seed';
import { useServer } from '../support/server';

/**
 * Literata swaps in when it arrives (font-display: swap). Until then the serif texts use
 * 'Literata Fallback', the local Times New Roman (or Liberation Serif) scaled to Literata's
 * metrics (app/app.css, docs/decisions/038), so the lines wrap alike and the swap moves nothing
 * (the blog page's CLS). The blog page is measured at a phone's width twice: with Literata
 * refused, and with it loaded.
 */
const server = useServer();
const browsers = useBrowsers({ allowed: /literata.*net::ERR_FAILED|Failed to load resource: net::ERR_FAILED/ });
let blogId: string;

const TITLE = 'Evening trains along the coast, and the small towns where every station smells of salt and bread';
const LEDE =
  'We took the slow line from the harbour to the cliffs, stopping wherever the light looked kind: a bakery that opens at dusk, ' +
  'a lighthouse keeper who still writes letters, and a beach where the tide leaves the sand striped like a tabby cat. ' +
  'This is a diary of those evenings, written on a phone with cold fingers.';

beforeAll(async () => {
  const seeder = await openBrowser();
  await signUp(seeder.context, server.url, { name: 'Reader of fonts' });
  [blogId] = (await seedBlogs(seeder.context, server.url, [{ title: TITLE, short_description: LEDE }])) as [string];
  await seeder.close();
});

/** Heights of the blog page's serif texts (title, lede), and the family that drew them. */
async function measure(withLiterata: boolean) {
  const { page } = await browsers.open({ viewport: VIEWPORTS.phone });
  if (!withLiterata) await page.route(/literata.*\.woff2$/, (route) => route.abort('failed'));
  await page.goto(`${server.url}/blogs/${blogId}`);
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(() => {
    const height = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().height;
    return {
      literata: document.fonts.check('700 16px Literata') && [...document.fonts].some((f) => f.family === 'Literata' && f.status === 'loaded'),
      fallback: [...document.fonts].some((f) => f.family === 'Literata Fallback' && f.status === 'loaded'),
      title: height('main article h1'),
      lede: height('main article h1 + p'),
    };
  });
}

describe('the reading face', () => {
  it('takes the same room while it loads as after it arrives', async () => {
    const before = await measure(false);
    const after = await measure(true);
    expect(before.literata).toBe(false);
    expect(after.literata).toBe(true);
    // Same number of lines: heights equal to the pixel (a line is 30 px or more here).
    expect(Math.abs(before.title - after.title), `title ${before.title} → ${after.title}`).toBeLessThan(2);
    expect(Math.abs(before.lede - after.lede), `lede ${before.lede} → ${after.lede}`).toBeLessThan(2);
    expect(before.fallback, 'no local Times New Roman or Liberation Serif for the stand-in').toBe(true);
  });
});
