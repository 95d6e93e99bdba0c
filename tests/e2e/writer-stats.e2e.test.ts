import { describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { scrollToElement, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { TEST_DIALECTS } from '../support/databases';
import { seedBlogs } from '../support/home-seed';
import { useServer } from '../support/server';

/**
 * A writer's own numbers (docs/decisions/066): readers view, like and follow in real browsers,
 * and the writer reads the figures back on /profile/stats. On each database.
 */
describe.each(TEST_DIALECTS)('a writer’s numbers on %s', (dialect) => {
  const server = useServer({}, dialect);
  const { open } = useBrowsers();

  it('shows the views, likes and followers readers gave a post, per day too; axe-clean at phone and desktop, light and dark', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Stella Stats' });
    const [post] = await seedBlogs(writer.context, server.url, [{ title: 'Counted light' }]);

    // Two signed-in readers open the post (their browsers send the view), like it and follow her.
    for (const name of ['Ria Reader', 'Theo Reader']) {
      const reader = await open({ viewport: VIEWPORTS.phone });
      await signUp(reader.context, server.url, { name });
      const { page } = reader;
      await page.goto(`${server.url}/blogs/${post}`);
      await waitForHydration(page);
      await page.getByTestId('like-button').click();
      await expect.poll(() => page.getByTestId('like-count').first().textContent()).not.toBe('0');
      const follow = page.getByRole('button', { name: 'Follow Stella Stats' }).first();
      await scrollToElement(follow);
      await follow.click();
      await expect.poll(() => page.getByRole('button', { name: 'Unfollow Stella Stats' }).count()).toBeGreaterThan(0);
    }

    const { page } = writer;
    await page.goto(`${server.url}/profile`);
    await page.getByRole('link', { name: 'My numbers' }).click();
    await page.waitForURL(/\/profile\/stats$/);
    const figure = (label: string) => page.getByTestId('post-stats').filter({ hasText: 'Counted light' }).locator(`[data-figure="${label}"]`).textContent();
    // Views reach the database with the counter's next flush (within seconds).
    await expect
      .poll(async () => {
        await page.reload();
        return figure('Views');
      })
      .toBe('2');
    expect(await figure('Likes')).toBe('2');
    expect(await figure('New followers')).toBe('2');
    expect(await figure('Comments')).toBe('0');
    expect(await page.getByTestId('total-followers').textContent()).toBe('2');
    const today = new Date().toISOString().slice(0, 10);
    await page.getByText('Views per day, last 14 days').click();
    expect(await page.locator(`tr[data-day="${today}"] td`).last().textContent()).toBe('2');

    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        // The theme is chosen as the page loads: load it again in this scheme, the day table open.
        await page.reload();
        await page.getByText('Views per day, last 14 days').click();
        await page.locator(`tr[data-day="${today}"]`).waitFor();
        expect(await axeViolations(page), `${width} ${colorScheme}`).toEqual([]);
        if (dialect === 'sqlite') await page.screenshot({ path: `tests/e2e/screenshots/writer-stats-${width}-${colorScheme}.png`, fullPage: true });
      }
    }
    expect(writer.errors).toEqual([]);

    // Nobody else reads her numbers: signed out, the page sends to log in.
    const res = await fetch(`${server.url}/profile/stats`, { redirect: 'manual' });
    expect(res.status).toBe(302);
  });
});
