import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { apiSession, signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { refused, screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { PUBLIC_BLOG } from '../support/public-blog';
import { useServer } from '../support/server';

/** The instance page for admins (/moderation/instance, docs/decisions/052). */

const server = useServer();
const { open, allow } = useBrowsers();

const script = (args: string[]) => execFileSync(process.execPath, args, { env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
const figure = async (page: import('playwright-core').Page, id: string) => (await page.getByTestId(id).textContent())?.trim();

describe('the instance page', () => {
  it('shows an admin real figures, the last backup and what needs attention; light and dark, phone and desktop', async () => {
    const admin = await open();
    const me = await signUp(admin.context, server.url, { name: 'Ada Admin' });
    expect(script(['scripts/admin.js', 'grant', me.email])).toContain('is now an admin');

    await admin.page.goto(`${server.url}/moderation`);
    await waitForHydration(admin.page);
    await admin.page.getByRole('link', { name: 'Instance status' }).click();
    await admin.page.waitForURL(/\/moderation\/instance$/);
    await expect.poll(() => figure(admin.page, 'instance-users')).toBe('1');
    expect(await figure(admin.page, 'instance-blogs')).toBe('0');
    expect(await figure(admin.page, 'instance-version')).toMatch(/^\d+\.\d+\.\d+/);
    expect(await figure(admin.page, 'instance-node')).toBe(execFileSync(process.execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim());
    expect(await figure(admin.page, 'instance-database')).toMatch(/^\d+(\.\d)? (bytes|KB|MB)$/);
    // The test server has no PUBLIC_URL, no SMTP and no backup yet.
    const warnings = admin.page.getByTestId('instance-warnings');
    expect(await warnings.locator('[data-warning]').evaluateAll((items) => items.map((i) => i.getAttribute('data-warning')))).toEqual(['public-url', 'smtp', 'backup']);
    expect(await figure(admin.page, 'instance-backup')).toBe('None found');

    // Two writers join, one publishes, a reader reports the blog, and a backup is made.
    const writer = await apiSession(server.url, { email: `writer-${Date.now()}@example.com`, name: 'Wren Writer' });
    const reader = await apiSession(server.url, { email: `reader-${Date.now()}@example.com`, name: 'Rae Reader' });
    const created = await fetch(`${server.url}/api/blogs`, { method: 'POST', headers: { cookie: writer.cookie, origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify(PUBLIC_BLOG) });
    const { insertedId } = (await created.json()) as { insertedId: string };
    const report = await fetch(`${server.url}/api/reports`, { method: 'POST', headers: { cookie: reader.cookie, origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ targetType: 'blog', targetId: insertedId, reason: 'Spam' }) });
    expect(report.status).toBe(201);
    expect(script(['scripts/backup.js'])).toContain('backup written to');

    await admin.page.reload();
    await waitForHydration(admin.page);
    expect(await figure(admin.page, 'instance-users')).toBe('3');
    expect(await figure(admin.page, 'instance-blogs')).toBe('1');
    expect(await admin.page.getByTestId('instance-queues').getByRole('row', { name: /Open reports/ }).textContent()).toMatch(/Open reports1/);
    expect(await figure(admin.page, 'instance-backup')).not.toBe('None found');
    expect(await warnings.locator('[data-warning]').evaluateAll((items) => items.map((i) => i.getAttribute('data-warning')))).toEqual(['public-url', 'smtp']);

    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await admin.page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark'] as const) {
        await admin.page.emulateMedia({ colorScheme });
        await admin.page.evaluate((dark) => localStorage.setItem('theme', dark ? 'dark' : 'light'), colorScheme === 'dark');
        await admin.page.reload();
        await waitForHydration(admin.page);
        expect(await axeViolations(admin.page), `${name} ${colorScheme}`).toEqual([]);
        await screenshot(admin.page, `instance-${name}-${colorScheme}`);
      }
    }
  }, 360_000);

  it('does not exist for anyone else, exactly as /moderation does not', async () => {
    allow(refused(404));
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Wanda Writer' });
    const modEmail = `mod-${Date.now()}@example.com`;
    const moderator = await open();
    await signUp(moderator.context, server.url, { email: modEmail, name: 'Mo Moderator' });
    const adminEmail = `admin2-${Date.now()}@example.com`;
    const admin = await apiSession(server.url, { email: adminEmail, name: 'Abe Admin' });
    script(['scripts/admin.js', 'grant', adminEmail]);
    const granted = await fetch(`${server.url}/api/moderation/moderators`, { method: 'POST', headers: { cookie: admin.cookie, origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ email: modEmail, reason: 'Helps out' }) });
    expect(granted.status).toBe(200);

    // A writer: /moderation and the instance page are both the 404 page.
    for (const path of ['/moderation', '/moderation/instance']) {
      const res = await writer.page.goto(`${server.url}${path}`);
      expect(res?.status(), path).toBe(404);
    }
    // A moderator opens /moderation, without the admins' link, and the instance page is a 404.
    expect((await moderator.page.goto(`${server.url}/moderation`))?.status()).toBe(200);
    await waitForHydration(moderator.page);
    expect(await moderator.page.getByRole('link', { name: 'Instance status' }).count()).toBe(0);
    expect((await moderator.page.goto(`${server.url}/moderation/instance`))?.status()).toBe(404);
    expect(await moderator.page.getByText('Ada Admin').count()).toBe(0);
    // Signed out: both send to the sign-in page.
    for (const path of ['/moderation', '/moderation/instance']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location'), path).toMatch(/^\/login\?redirectTo=/);
    }
  }, 180_000);
});
