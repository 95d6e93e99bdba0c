import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { type MailSite, POST_PHOTO, PUBLIC_ORIGIN, queueCounts, readMail, startMailSite, waitFor } from '../support/mail-site';

const SUBSCRIBERS = 1000;
const UNCONFIRMED = 50;

describe.each(TEST_DIALECTS)('newsletters sent over SMTP on %s', (dialect) => {
  let site: MailSite | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it(`one publish reaches exactly the ${SUBSCRIBERS} confirmed subscribers, each with a one-click unsubscribe of their own`, async () => {
    site = await startMailSite(dialect);
    const confirmed = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}@example.com`);
    await site.seedSubscribers(confirmed, true);
    await site.seedSubscribers(Array.from({ length: UNCONFIRMED }, (_, i) => `unconfirmed${i}@example.com`), false);
    const blogId = await site.publish('Golden hour');
    await waitFor(`${SUBSCRIBERS} mails`, () => site!.smtp.mails.length >= SUBSCRIBERS);
    await site.waitForQueueEmpty();

    const mails = await Promise.all(site.smtp.mails.map((m) => readMail(m.raw, m.to[0]!)));
    const recipients = new Set(mails.map((m) => m.to));
    const messageIds = new Set(mails.map((m) => m.messageId));
    const urls = new Set(mails.map((m) => m.unsubscribeUrl));
    const wellFormed = mails.filter(
      (m) =>
        m.header('List-Unsubscribe-Post') === 'List-Unsubscribe=One-Click' &&
        m.unsubscribeUrl?.startsWith(`${PUBLIC_ORIGIN}/mail/unsubscribe/`) &&
        /<mailto:news@afterglow\.example\.test\?subject=unsubscribe%20[^>]+>/.test(m.header('List-Unsubscribe') ?? '') &&
        m.parsed.from?.value[0]?.address === 'news@afterglow.example.test' &&
        m.subject === 'Golden hour' &&
        m.parsed.text?.includes(`${PUBLIC_ORIGIN}/blogs/${blogId}`) &&
        typeof m.parsed.html === 'string' &&
        m.parsed.html.includes(`${PUBLIC_ORIGIN}${POST_PHOTO}`) &&
        m.parsed.html.includes('The light over the bay'),
    );
    expect(mails).toHaveLength(SUBSCRIBERS);
    expect([...recipients].sort()).toEqual([...confirmed].sort());
    expect(messageIds.size).toBe(SUBSCRIBERS);
    expect(urls.size).toBe(SUBSCRIBERS);
    expect(wellFormed).toHaveLength(SUBSCRIBERS);

    // One reader's one-click POST, as a mail client sends it: no cookie, no login.
    const leaving = mails.find((m) => m.to === 'reader417@example.com')!;
    const url = leaving.unsubscribeUrl!.replace(PUBLIC_ORIGIN, site.server.url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('reader417@example.com');
    const stillThere = await site.db.selectFrom('subscribers').select('email').where('email', '=', 'reader417@example.com').execute();
    expect(stillThere).toHaveLength(1);
    const post = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(post.status).toBe(200);
    const left = await site.db.selectFrom('subscribers').select('email').where('confirmed_at', 'is not', null).execute();
    expect(left).toHaveLength(SUBSCRIBERS - 1);
    expect(left.map((r) => r.email)).not.toContain('reader417@example.com');
    // The first character of the signature changed (the last one also carries padding bits).
    const [payload, signature] = url.split('/mail/unsubscribe/')[1]!.split('.') as [string, string];
    const forgedUrl = `${site.server.url}/mail/unsubscribe/${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const forged = await fetch(forgedUrl, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
    expect(forged.status).toBe(404);
    // A preferences link whose token is garbled or cut off says the link is bad; it does not ask for a login.
    for (const token of ['garbled', '']) {
      const bad = await fetch(`${site.server.url}/mail/preferences?t=${token}`, { redirect: 'manual' });
      expect(bad.status, `?t=${token}`).toBe(404);
      expect(await bad.text()).toContain('data-testid="mail-link-invalid"');
    }

    const counts = await queueCounts(site.db);
    console.log(
      `mail (${dialect}): ${SUBSCRIBERS + UNCONFIRMED} subscribers (${UNCONFIRMED} unconfirmed), 1 publish, ${mails.length} sent, ` +
        `${recipients.size} distinct recipients, ${mails.length - messageIds.size} duplicates, ${urls.size} distinct unsubscribe links, ` +
        `${SUBSCRIBERS - left.length} unsubscribed by one POST, queue ${JSON.stringify(counts)}`,
    );
  });

  it('a 550 at RCPT marks the address bounced and the next publish skips it; a 451 is retried and delivered', async () => {
    const rcpt: string[] = [];
    let greylisted = 0;
    site = await startMailSite(dialect, {
      rcptReply(address) {
        rcpt.push(address);
        if (address === 'gone@example.com') return 550;
        if (address === 'grey@example.com' && greylisted++ === 0) return 451;
        return undefined;
      },
    });
    await site.seedSubscribers(['gone@example.com', 'grey@example.com', 'fine@example.com'], true);
    await site.publish('First light');
    await waitFor('the greylisted mail', () => site!.smtp.mails.some((m) => m.to.includes('grey@example.com')), 30_000);
    await site.waitForQueueEmpty();
    const bounced = await site.db.selectFrom('mail_bounces').select('email').execute();
    expect(bounced).toEqual([{ email: 'gone@example.com' }]);
    expect(site.smtp.mails.map((m) => m.to[0]).sort()).toEqual(['fine@example.com', 'grey@example.com']);
    const grey = await site.db.selectFrom('mail_queue').select(['status', 'attempts']).where('email', '=', 'grey@example.com').executeTakeFirstOrThrow();
    expect(grey).toEqual({ status: 'sent', attempts: 2 });

    const triesBefore = rcpt.filter((a) => a === 'gone@example.com').length;
    await site.publish('Second light');
    await waitFor('the second post', () => site!.smtp.mails.length >= 4);
    await site.waitForQueueEmpty();
    const triesAfter = rcpt.filter((a) => a === 'gone@example.com').length;
    expect(triesAfter).toBe(triesBefore);
    expect(site.smtp.mails.map((m) => m.to[0]).sort()).toEqual(['fine@example.com', 'fine@example.com', 'grey@example.com', 'grey@example.com']);
    console.log(
      `mail (${dialect}): 2 publishes to 3 subscribers, ${site.smtp.mails.length} delivered, 1 bounced at the first (550), ` +
        `${triesAfter - triesBefore} RCPT tries to it at the second (skipped), 451 retried ${grey.attempts - 1} time and delivered`,
    );
  });

  it('a follower gets the writer’s new post, a non-follower does not, unfollowing stops it', async () => {
    site = await startMailSite(dialect);
    const follower = await site.signUp('follower@example.com', 'Follower');
    await site.signUp('stranger@example.com', 'Stranger');
    const follow = await fetch(`${site.server.url}/follow`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: follower.cookie, origin: PUBLIC_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ writerId: site.writer.id, intent: 'follow', redirectTo: '/following' }),
    });
    expect(follow.status).toBe(302);
    const following = await fetch(`${site.server.url}/following`, { headers: { cookie: follower.cookie } });
    expect(await following.text()).toContain('Evening Writer');

    await site.publish('For the followers');
    await waitFor('the follower’s mail', () => site!.smtp.mails.length >= 1);
    await site.waitForQueueEmpty();
    expect(site.smtp.mails.map((m) => m.to[0])).toEqual(['follower@example.com']);
    const mail = await readMail(site.smtp.mails[0]!.raw, 'follower@example.com');
    expect(mail.subject).toBe('New from Evening Writer: For the followers');

    // Unfollow with the mail's own one-click link.
    const post = await fetch(mail.unsubscribeUrl!.replace(PUBLIC_ORIGIN, site.server.url), { method: 'POST', body: 'List-Unsubscribe=One-Click' });
    expect(post.status).toBe(200);
    await site.publish('After the unfollow');
    await site.waitForQueueEmpty();
    const messages = await site.db.selectFrom('mail_messages').select('key').where('kind', '=', 'post').execute();
    expect(messages).toHaveLength(2);
    expect(site.smtp.mails).toHaveLength(1);
    console.log(`mail (${dialect}): follow: 2 posts, follower got 1 (before unfollowing by one click), non-follower got 0`);
  });
});
