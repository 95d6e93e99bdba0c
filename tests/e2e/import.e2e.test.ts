import { afterAll, describe, expect, it } from 'vitest';
import { writeZip } from '../support/archives';
import { signUp } from '../support/auth';
import { screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { ghostArchive } from '../support/import-archives';
import { useServer } from '../support/server';
import { tempDirs } from '../support/temp-dirs';

const server = useServer();
const { open } = useBrowsers();
const dirs = tempDirs();
afterAll(() => dirs.removeAll());

describe('a writer imports her posts (docs/decisions/072)', () => {
  it('uploads a Ghost archive, checks the category mapping, watches the progress bar, reads the report; the posts and old links work', async () => {
    const archive = await ghostArchive(24, { idPrefix: 'e2e-' });
    const file = await writeZip(dirs.make('e2e-import-'), 'my-ghost-export.zip', archive.members);
    const writer = await open({ viewport: VIEWPORTS.phone });
    await signUp(writer.context, server.url, { name: 'Gwen Ghost' });
    await writer.page.goto(`${server.url}/profile`);
    await writer.page.getByRole('link', { name: 'Import posts' }).click();
    await writer.page.waitForURL(/\/profile\/import$/);
    await waitForHydration(writer.page);
    await screenshot(writer.page, 'import-phone-empty');
    await writer.page.getByLabel('Archive').setInputFiles(file);
    await writer.page.getByRole('button', { name: 'Read the archive' }).click();

    // The scan runs in the background; the page polls until the mapping is there to check.
    await writer.page.getByText('Check how your categories map onto ours, then import.').waitFor({ timeout: 60_000 });
    expect(await writer.page.getByText('Found 24 posts in this Ghost archive.', { exact: false }).isVisible()).toBe(true);
    const travel = writer.page.getByRole('combobox', { name: 'Travel' });
    expect(await travel.inputValue()).toBe('Travelling & Photography');
    await travel.selectOption('Personal');
    await screenshot(writer.page, 'import-phone-review');
    await writer.page.getByRole('button', { name: 'Import', exact: true }).click();

    await writer.page.getByTestId('import-report').waitFor({ timeout: 90_000 });
    expect(await writer.page.getByTestId('import-status').textContent()).toBe('Done.');
    expect(await writer.page.getByTestId('import-progress').getAttribute('value')).toBe('24');
    expect(await writer.page.getByTestId('import-report').textContent()).toMatch(/^24 posts imported \(0 were here already, 0 skipped\)/);
    await writer.page.getByText(/did not come, and why/).click();
    expect(await writer.page.getByText('Post number 5: cover /content/images/2020/01/missing.jpg: not in the archive, and no old address to fetch it from').isVisible()).toBe(true);
    await screenshot(writer.page, 'import-phone-report');
    await writer.page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(writer.page, 'import-desktop-report');

    // An old link answers with a permanent redirect to the imported post, which shows our copy of its picture.
    const moved = await fetch(`${server.url}/post-number-0/`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    const location = moved.headers.get('location')!;
    expect(location).toMatch(/^\/blogs\/[0-9a-f-]{36}$/);
    await writer.page.goto(`${server.url}${location}`);
    expect(await writer.page.getByRole('heading', { name: 'Post number 0', exact: true }).first().isVisible()).toBe(true);
    expect(await writer.page.locator('article img[src*="/uploads/"], main img[src*="/uploads/"]').count()).toBeGreaterThan(0);
    expect(writer.errors).toEqual([]);
  });
});
