import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '~/db/schema';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '../support/databases';
import { freePort, type RunningServer, startServer } from '../support/server';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';

/**
 * A site of our own per dialect, whose database the operator's command line can reach too
 * (`npm run admin`), and which can be started again on the same data.
 */
async function startSite(dialect: DialectName, env: Record<string, string> = {}) {
  const scratch: ScratchDatabase | null = dialect === 'postgres' ? await createScratchDatabase('postgres') : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-standing-'));
  // One port for the site's life, so a restart answers at the same address.
  const siteEnv = { ...env, DATA_DIR: dataDir, PORT: String(await freePort()), ...(scratch ? { DATABASE_URL: scratch.env.DATABASE_URL! } : {}) };
  let server: RunningServer = await startServer(siteEnv);
  return {
    get url() {
      return server.url;
    },
    get server() {
      return server;
    },
    /** `npm run admin -- grant EMAIL`, as the operator runs it. */
    grant: (email: string) => execFileSync(process.execPath, ['scripts/admin.js', 'grant', email], { env: { ...process.env, ...siteEnv, LOG_LEVEL: 'warn' }, encoding: 'utf8' }),
    async restart() {
      await server.stop();
      server = await startServer(siteEnv);
      return server;
    },
    async stop() {
      await server.stop();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
type Site = Awaited<ReturnType<typeof startSite>>;

/** Whether a word of the page's main content is broken across two lines (a mid-word break). */
function wordsBrokenMidWord(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('main') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[A-Za-z]{4,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

describe.each(TEST_DIALECTS)('standing and moderation on %s', (dialect) => {
  const { open, allow } = useBrowsers();

  it("trusts the site's first account and its staff: no spam hold, admin grant approves, and the operator is told who waits", async () => {
    const site = await startSite(dialect, { SPAM_HOLD_DAYS: '3' });
    try {
      const owner = await open();
      const ownerUser = await signUp(owner.context, site.url, { name: 'Olga Owner' });
      const ownerBlog = await seedBlog(owner.context, site.url, { title: 'Welcome to my site', photo: await uploadPhoto(owner.context, site.url) });
      const newcomer = await open();
      const newcomerUser = await signUp(newcomer.context, site.url, { name: 'Nico Newcomer' });
      const newcomerBlog = await seedBlog(newcomer.context, site.url, { title: 'Hello from Nico', photo: await uploadPhoto(newcomer.context, site.url) });

      // The owner's first post spreads at once; the newcomer's waits out the hold.
      const robotsOf = async (id: string) => /<meta name="robots" content="([^"]+)"/.exec(await (await fetch(`${site.url}/blogs/${id}`)).text())?.[1] ?? '';
      expect(await robotsOf(ownerBlog)).not.toContain('noindex');
      expect(await robotsOf(newcomerBlog)).toContain('noindex');
      const sitemap = async () => (await (await fetch(`${site.url}/sitemap.xml`)).text()) + (await (await fetch(`${site.url}/sitemap-blogs-1.xml`)).text().catch(() => ''));
      expect(await sitemap()).toContain(`/blogs/${ownerBlog}`);
      expect(await sitemap()).not.toContain(`/blogs/${newcomerBlog}`);

      // The operator is told: on the instance page, and in one line at start.
      expect(site.grant(ownerUser.email)).toContain('is now an admin');
      await owner.page.goto(`${site.url}/moderation/instance`);
      await waitForHydration(owner.page);
      const warning = owner.page.locator('[data-warning="accounts-waiting"]');
      expect(await warning.textContent()).toContain('1 new account is on the spam hold or waiting for approval');
      expect(await warning.getByRole('link', { name: 'Moderation' }).getAttribute('href')).toBe('/moderation#pending-heading');
      expect(await owner.page.getByTestId('instance-accounts-waiting').textContent()).toBe('1');
      expect(await axeViolations(owner.page)).toEqual([]);
      // The page leaves first: a running page would ask the stopped server for route patches.
      await owner.page.goto('about:blank');
      const restarted = await site.restart();
      await expect.poll(() => restarted.output()).toContain("1 account is waiting for a moderator's approval: see /moderation.");

      // `admin grant` approves the account it names: its post reaches the sitemap and loses noindex.
      site.grant(newcomerUser.email);
      expect(await robotsOf(newcomerBlog)).not.toContain('noindex');
      expect(await sitemap()).toContain(`/blogs/${newcomerBlog}`);
      await owner.page.goto(`${site.url}/moderation/instance`);
      expect(await owner.page.locator('[data-warning="accounts-waiting"]').count()).toBe(0);
    } finally {
      await site.stop();
    }
    // Two starts of a server and the operator's command three times: longer than a page journey.
  }, 180_000);

  describe('on one site', () => {
    let site: Site;
    beforeAll(async () => {
      site = await startSite(dialect);
    });
    afterAll(async () => site?.stop());

    it('a moderator suspends from the writer’s page (an explicit period); the writer sees why and until when on every writing screen, with the forms off', async () => {
      const admin = await open();
      const adminUser = await signUp(admin.context, site.url, { name: 'Ada Admin' });
      site.grant(adminUser.email);
      const adminBlog = await seedBlog(admin.context, site.url, { title: 'Rules of the house', photo: await uploadPhoto(admin.context, site.url) });
      const writer = await open({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
      const writerUser = await signUp(writer.context, site.url, { name: 'Wes Writer' });
      const writerBlog = await seedBlog(writer.context, site.url, { title: 'Loud opinions', photo: await uploadPhoto(writer.context, site.url) });

      await admin.page.goto(`${site.url}/blogs/${writerBlog}`);
      await admin.page.getByTestId('author').click();
      await admin.page.waitForURL(/\/authors\//);
      await waitForHydration(admin.page);
      const panel = admin.page.getByTestId('moderate-writer');
      // The disclosure stays as the moderator left it across the page's own reloads.
      const openPanel = async () => {
        if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await panel.locator('summary').click();
      };
      await openPanel();
      await panel.getByLabel(/Reason/).fill('Spam run');
      // No period chosen: refused, never "for good" by omission.
      await panel.getByRole('button', { name: 'Suspend' }).click();
      await expect.poll(() => admin.page.getByText('Choose how long the suspension lasts: a number of days, or for good.').count()).toBeGreaterThan(0);
      expect((await writer.context.request.get(`${site.url}/api/auth/get-session`)).ok()).toBe(true);
      expect(await (await writer.context.request.get(`${site.url}/api/auth/get-session`)).json()).not.toBeNull();

      await waitForHydration(admin.page);
      await openPanel();
      await panel.getByLabel(/Reason/).fill('Spam run');
      await panel.getByLabel('Suspend for').selectOption('7');
      expect(await axeViolations(admin.page)).toEqual([]);
      await screenshot(admin.page, 'moderate-writer-desktop-light');
      await panel.getByRole('button', { name: 'Suspend' }).click();
      await expect.poll(() => admin.page.getByTestId('writer-suspended').count()).toBe(1);
      expect(await admin.page.getByTestId('writer-suspended').textContent()).toMatch(/^Suspended until .+\. Reason: Spam run$/);

      // The writer signs in again (a suspension ends every session) and is told before typing.
      const signIn = await writer.context.request.post(`${site.url}/api/auth/sign-in/email`, { headers: { origin: site.url }, data: { email: writerUser.email, password: writerUser.password } });
      expect(signIn.ok()).toBe(true);
      allow(/the server responded with a status of 403 /);
      const screens: [string, string][] = [
        ['/addBlog', 'Title'],
        [`/updateBlog/${writerBlog}`, 'Title'],
        ['/update-profile', 'Full Name'],
        [`/blogs/${adminBlog}`, 'Comment'],
      ];
      for (const [screen, field] of screens) {
        await writer.page.goto(`${site.url}${screen}`);
        await waitForHydration(writer.page);
        const banner = writer.page.getByTestId('suspended-banner');
        expect(await banner.textContent()).toMatch(/Your account is suspended until .+\.You can read, but not write, like, comment or upload, so the forms here are off\.Reason: Spam run/);
        expect(await writer.page.getByTestId('suspended-form').getByLabel(field, { exact: true }).first().isDisabled()).toBe(true);
        expect(await axeViolations(writer.page)).toEqual([]);
      }
      await writer.page.goto(`${site.url}/addBlog`);
      await waitForHydration(writer.page);
      await screenshot(writer.page, 'suspended-add-blog-phone-dark');

      // For good, said in so many words.
      await admin.page.goto(`${site.url}/authors/${(await (await fetch(`${site.url}/blogs/${writerBlog}`)).text()).match(/href="\/authors\/([^"]+)"/)![1]}`);
      await waitForHydration(admin.page);
      await panel.getByLabel(/Reason/).fill('Appeal upheld');
      await panel.getByRole('button', { name: 'Lift suspension' }).click();
      await expect.poll(() => admin.page.getByTestId('writer-suspended').count()).toBe(0);
      await waitForHydration(admin.page);
      await openPanel();
      await panel.getByLabel(/Reason/).fill('Back at it');
      await panel.getByLabel('Suspend for').selectOption('forever');
      await panel.getByRole('button', { name: 'Suspend' }).click();
      await expect.poll(() => admin.page.getByTestId('writer-suspended').textContent()).toBe('Suspended for good. Reason: Back at it');
      await writer.context.request.post(`${site.url}/api/auth/sign-in/email`, { headers: { origin: site.url }, data: { email: writerUser.email, password: writerUser.password } });
      await writer.page.goto(`${site.url}/update-profile`);
      expect(await writer.page.getByTestId('suspended-banner').textContent()).toContain('Your account is suspended for good.');
    }, 150_000);

    it('Delete asks first (with and without JavaScript); queue items show rendered Markdown; the audit log reads in names and words; no word breaks mid-word on a phone', async () => {
      const admin = await open({ viewport: VIEWPORTS.phone });
      const adminUser = await signUp(admin.context, site.url, { name: 'Mona Moderator' });
      site.grant(adminUser.email);
      const writer = await open();
      await signUp(writer.context, site.url, { name: 'Rex Reported' });
      const photo = await uploadPhoto(writer.context, site.url);
      const markdown = await seedBlog(writer.context, site.url, { title: 'Bold claims', long_description: '## Extraordinary\n\nThis is **definitely** true.', photo });
      const plain = await seedBlog(writer.context, site.url, { title: 'Second claim', photo });
      const reader = await open();
      await signUp(reader.context, site.url, { name: 'Rhea Reader' });
      for (const id of [markdown, plain]) {
        const res = await reader.context.request.post(`${site.url}/api/reports`, { headers: { origin: site.url }, data: { targetType: 'blog', targetId: id, reason: 'Misinformation', details: 'Unsupported claims throughout' } });
        expect(res.status()).toBe(201);
      }

      const { page } = admin;
      await page.goto(`${site.url}/moderation`);
      await waitForHydration(page);
      const item = page.getByTestId('queue-item').filter({ hasText: 'Bold claims' });
      const quoted = item.getByTestId('quoted-markdown');
      expect(await quoted.locator('strong').textContent()).toBe('definitely');
      expect(await quoted.locator('h2').textContent()).toBe('Extraordinary');
      expect(await quoted.textContent()).not.toContain('**');

      // Delete asks; Cancel keeps it.
      await item.getByLabel(/Reason/).fill('Made up');
      await item.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByTestId('feedback-dialog');
      await dialog.getByRole('heading', { name: 'Delete this blog for good?' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'moderation-delete-confirm-phone-light');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await fetch(`${site.url}/blogs/${markdown}`)).status).toBe(200);
      await item.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
      await expect.poll(() => fetch(`${site.url}/blogs/${markdown}`).then((r) => r.status)).toBe(404);

      // Without JavaScript the server asks with the same dialog.
      const plainBrowser = await open({ javaScriptEnabled: false });
      await plainBrowser.context.addCookies(await admin.context.cookies());
      await plainBrowser.page.goto(`${site.url}/moderation`);
      const second = plainBrowser.page.getByTestId('queue-item').filter({ hasText: 'Second claim' });
      await second.getByLabel(/Reason/).fill('Also made up');
      await second.getByRole('button', { name: 'Delete' }).click();
      const confirm = plainBrowser.page.getByTestId('confirm-delete');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('Reason: Also made up');
      expect((await fetch(`${site.url}/blogs/${plain}`)).status).toBe(200);
      await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
      await plainBrowser.page.waitForURL((url) => !url.search.includes('confirmDelete'));
      expect((await fetch(`${site.url}/blogs/${plain}`)).status).toBe(404);

      // The audit log: names and words, not ids and codes.
      await page.goto(`${site.url}/moderation`);
      await waitForHydration(page);
      const rows = await page.getByTestId('audit-log').locator('li').allTextContents();
      expect(rows.slice(0, 3)).toEqual([
        expect.stringMatching(/^Mona Moderator deleted a blog\..* · Why: Also made up$/),
        expect.stringMatching(/^Mona Moderator deleted a blog\..* · Why: Made up$/),
        expect.stringMatching(/^operator made Mona Moderator an admin\..* · Why: operator command line$/),
      ]);
      expect(rows.join('\n')).toMatch(/Ada Admin suspended Wes Writer until .+\./);
      expect(rows.join('\n')).toMatch(/Ada Admin suspended Wes Writer for good\./);
      expect(rows.join('\n')).toMatch(/Ada Admin lifted the suspension of Wes Writer\./);
      expect(rows.join('\n')).not.toMatch(/approve_account|grant_admin|suspend_until|user [A-Za-z0-9]{8}/);

      // On a phone, words wrap whole.
      expect(await wordsBrokenMidWord(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'moderation-audit-log-phone-light');
    }, 150_000);
  });
});
